/**
 * JSON Schema of the `comparisons` block of `results.json` (`Comparisons`, `./types.ts`); part
 * of `RESULTS_SCHEMA` (`eval/results-schema.ts`).
 */
const nullableNumber = { type: ['number', 'null'] };
const status = { enum: ['pass', 'fail', 'error', 'skipped'] };

const interval = {
  type: 'object',
  additionalProperties: false,
  required: ['n', 'meanDifference', 'low', 'high', 'level', 'resamples', 'seed'],
  properties: {
    n: { type: 'integer', minimum: 0 },
    meanDifference: nullableNumber,
    low: nullableNumber,
    high: nullableNumber,
    level: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    resamples: { type: 'integer', minimum: 1 },
    seed: { type: 'integer' },
  },
};

const pair = {
  type: 'object',
  additionalProperties: false,
  required: ['reference', 'candidate', 'paired', 'table', 'mcnemar', 'transitions', 'deltas', 'bootstrap'],
  properties: {
    reference: { type: 'string' },
    candidate: { type: 'string' },
    paired: { type: 'integer', minimum: 0 },
    table: {
      type: 'object',
      additionalProperties: false,
      required: ['bothPass', 'referenceOnly', 'candidateOnly', 'bothFail'],
      properties: {
        bothPass: { type: 'integer', minimum: 0 },
        referenceOnly: { type: 'integer', minimum: 0 },
        candidateOnly: { type: 'integer', minimum: 0 },
        bothFail: { type: 'integer', minimum: 0 },
      },
    },
    mcnemar: {
      type: 'object',
      additionalProperties: false,
      required: ['discordant', 'referenceOnly', 'candidateOnly', 'pValue'],
      properties: {
        discordant: { type: 'integer', minimum: 0 },
        referenceOnly: { type: 'integer', minimum: 0 },
        candidateOnly: { type: 'integer', minimum: 0 },
        pValue: { type: 'number', minimum: 0, maximum: 1 },
      },
    },
    transitions: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'kind', 'reference', 'candidate', 'changes'],
        properties: {
          id: { type: 'string' },
          kind: { enum: ['regression', 'fix', 'behaviour', 'skip'] },
          reference: status,
          candidate: status,
          changes: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['field', 'reference', 'candidate'],
              properties: {
                field: {
                  enum: [
                    'status',
                    'stopReason',
                    'verdicts',
                    'turns',
                    'toolCalls',
                    'totalTokens',
                    'costUsd',
                    'firstFailure',
                    'expectFor',
                  ],
                },
                reference: { type: ['string', 'number', 'null'] },
                candidate: { type: ['string', 'number', 'null'] },
              },
            },
          },
        },
      },
    },
    deltas: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['reference', 'candidate', 'delta', 'better'],
        properties: {
          reference: nullableNumber,
          candidate: nullableNumber,
          delta: nullableNumber,
          better: { enum: ['higher', 'lower', null] },
        },
      },
    },
    bootstrap: { type: 'object', additionalProperties: interval },
  },
};

/** The schema of `comparisons`. */
export const COMPARISONS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['reference', 'modelNoise', 'pairs'],
  properties: {
    reference: { type: 'string' },
    modelNoise: {
      type: 'object',
      additionalProperties: false,
      required: ['frozen', 'live', 'note'],
      properties: {
        frozen: { type: 'integer', minimum: 0 },
        live: { type: 'integer', minimum: 0 },
        note: { type: 'string' },
      },
    },
    pairs: { type: 'array', items: pair },
  },
} as const;

/** The schema of `repeats` (`RepeatSummary`, `./repeat.ts`). */
export const REPEATS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['k', 'byConfig', 'cases'],
  properties: {
    k: { type: 'integer', minimum: 1 },
    byConfig: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['passHat1', 'passHatK', 'flipRate', 'flipped'],
        properties: {
          passHat1: nullableNumber,
          passHatK: nullableNumber,
          flipRate: { type: 'number', minimum: 0, maximum: 1 },
          flipped: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    cases: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'config', 'trials', 'passes', 'passHat1', 'passHatK', 'flipRate'],
        properties: {
          id: { type: 'string' },
          config: { type: 'string' },
          trials: { type: 'integer', minimum: 0 },
          passes: { type: 'integer', minimum: 0 },
          passHat1: nullableNumber,
          passHatK: nullableNumber,
          flipRate: { type: 'number', minimum: 0, maximum: 1 },
        },
      },
    },
  },
} as const;
