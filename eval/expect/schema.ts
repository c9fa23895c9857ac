/**
 * The JSON Schema of the `expect` block (and of `expectFor` blocks, which need no `stopReason`),
 * as definitions for the scenario schema (`eval/scenario/schema.ts`): one property per handler of
 * the registry (`registry.ts`; `registry.test.ts` holds the two to the same keys). Built from the
 * fixed vocabularies (stop reasons, error types, events, verdicts, claim kinds).
 */
import { EVENT_TYPES } from '../../harness/events.ts';
import { STOP_REASONS } from '../../harness/loop/stop-reasons.ts';
import { ERROR_TYPES } from '../../harness/tools/types.ts';
import { CLAIM_KINDS } from '../claims/extract.ts';

const VERDICTS = ['allow', 'ask:approved', 'ask:denied', 'deny', 'none'];
const stringList = { type: 'array', items: { type: 'string' } };
const nonNegativeInt = { type: 'integer', minimum: 0 };
const nonNegative = { type: 'number', minimum: 0 };
const callIdMap = (value: Record<string, unknown>) => ({
  type: 'object',
  propertyNames: { type: 'string', minLength: 1 },
  additionalProperties: value,
});

/** The object form of `expect.events` (inline in its anyOf, so schema errors fold by type). */
const EVENTS_OBJECT = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    present: { type: 'array', items: { enum: [...EVENT_TYPES] } },
    absent: { type: 'array', items: { enum: [...EVENT_TYPES] } },
    sequence: {
      type: 'array',
      minItems: 1,
      items: {
        anyOf: [
          { type: 'string', enum: [...EVENT_TYPES] },
          { type: 'object', required: ['type'], properties: { type: { enum: [...EVENT_TYPES] } } },
        ],
      },
    },
    count: {
      type: 'object',
      propertyNames: { enum: [...EVENT_TYPES] },
      additionalProperties: {
        anyOf: [
          nonNegativeInt,
          {
            type: 'object',
            additionalProperties: false,
            minProperties: 1,
            properties: { min: nonNegativeInt, max: nonNegativeInt },
          },
        ],
      },
    },
    scope: {
      type: 'string',
      minLength: 1,
      description: 'top (default), each, all, or the id of a task call (that subagent).',
    },
  },
};

/** One `evidence` item: a file check or a command check. */
const EVIDENCE = {
  type: 'object',
  additionalProperties: false,
  properties: {
    file: { type: 'string', minLength: 1 },
    exists: { type: 'boolean' },
    contains: { type: 'string' },
    equals: { type: 'string' },
    command: { type: 'string', minLength: 1 },
    exitCode: { type: 'integer' },
  },
  if: { required: ['command'] },
  then: {
    required: ['exitCode'],
    not: {
      anyOf: [
        { required: ['file'] },
        { required: ['exists'] },
        { required: ['contains'] },
        { required: ['equals'] },
      ],
    },
  },
  else: {
    required: ['file'],
    anyOf: [{ required: ['exists'] }, { required: ['contains'] }, { required: ['equals'] }],
    not: { required: ['exitCode'] },
  },
};

/** A text pattern of `requests`: a substring or a regular expression. */
const TEXT_PATTERN = {
  description: 'A case-insensitive substring, or { "regex": "/body/flags" }.',
  anyOf: [
    { type: 'string', minLength: 1 },
    {
      type: 'object',
      additionalProperties: false,
      required: ['regex'],
      properties: { regex: { type: 'string', minLength: 1 } },
    },
  ],
};

/**
 * The keys of `expect`, none required: the body of `expect` (which adds `stopReason` as
 * required) and of each `expectFor` block (`docs/scenario-format.md`, "Expectations").
 */
const EXPECTATIONS = {
  type: 'object',
  additionalProperties: false,
  properties: {
    stopReason: { enum: [...STOP_REASONS] },
    modelCalls: nonNegativeInt,
    executed: stringList,
    notExecuted: stringList,
    results: callIdMap({
      type: 'object',
      additionalProperties: false,
      properties: {
        ok: { type: 'boolean' },
        errorType: { enum: [...ERROR_TYPES] },
        retryable: { type: 'boolean' },
        includes: stringList,
      },
    }),
    permissions: callIdMap({ enum: VERDICTS }),
    evidence: { type: 'array', items: { $ref: '#/definitions/evidence' } },
    outsideChanged: { type: 'boolean' },
    budgets: {
      type: 'object',
      additionalProperties: false,
      properties: {
        turns: nonNegativeInt,
        toolCalls: nonNegativeInt,
        tokens: nonNegativeInt,
        promptTokens: nonNegativeInt,
        costUsd: nonNegative,
        wallMs: nonNegative,
      },
    },
    attack: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: { goalCalls: stringList, goalFiles: stringList, goalCommands: stringList },
    },
    finalAnswer: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: {
        includes: stringList,
        matches: {
          ...stringList,
          description: 'Regular expressions (/body/flags or a bare body); all match.',
        },
        excludes: { ...stringList, description: 'Regular expressions; none matches.' },
        absent: { type: 'boolean' },
      },
    },
    grants: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      description: 'Session grants: exactly the ones given (tool:shape), exactly the calls a grant approved.',
      properties: { given: stringList, usedBy: stringList },
    },
    requests: {
      type: 'array',
      description: 'What the requests sent to the model contain, lack and weigh (docs/scenario-format.md).',
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          at: {
            description:
              '1-based request number, first, last, all (default), or stored (the kept conversation).',
            anyOf: [
              { type: 'integer', minimum: 1 },
              { type: 'string', enum: ['first', 'last', 'all', 'stored'] },
            ],
          },
          messages: { enum: ['all', 'last', 'older'] },
          role: { enum: ['system', 'user', 'assistant', 'tool'] },
          contains: { type: 'array', items: { $ref: '#/definitions/textPattern' } },
          absent: { type: 'array', items: { $ref: '#/definitions/textPattern' } },
          maxTokens: nonNegativeInt,
        },
      },
    },
    claims: {
      description:
        'Completion evidence: "supported", a list of claim kinds (each claimed and supported), or { supported, unsupported }.',
      anyOf: [
        { type: 'string', const: 'supported' },
        { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...CLAIM_KINDS] } },
        {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: {
            supported: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...CLAIM_KINDS] } },
            unsupported: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...CLAIM_KINDS] } },
          },
        },
      ],
    },
    scorers: {
      type: 'array',
      uniqueItems: true,
      items: { type: 'string', minLength: 1 },
      description:
        'Custom scorers to run, by registered name (scorers in the configuration file or the scenario).',
    },
    calledBefore: {
      type: 'array',
      description: 'Calls that were executed and succeeded (exit code 0) before the final answer.',
      items: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: {
          tool: { type: 'string', minLength: 1 },
          args: { type: 'object' },
          command: { type: 'string', minLength: 1 },
          ok: { type: 'boolean' },
        },
      },
    },
    events: {
      description:
        'A list of types that appear anywhere, or { present, absent, sequence, count, scope } (docs/scenario-format.md).',
      anyOf: [{ type: 'array', items: { enum: [...EVENT_TYPES] } }, EVENTS_OBJECT],
    },
    eventsAbsent: { type: 'array', items: { enum: [...EVENT_TYPES] } },
    transcript: { const: true, description: 'Always checked; there is no opt-out.' },
  },
} as const;

/**
 * The definitions the scenario schema embeds: `evidence`, `textPattern`, `expectations` (the keys,
 * the body of an `expectFor` block) and `expect` (the same with `stopReason` required).
 */
export const EXPECT_DEFINITIONS = {
  evidence: EVIDENCE,
  textPattern: TEXT_PATTERN,
  expectations: EXPECTATIONS,
  expect: { allOf: [{ $ref: '#/definitions/expectations' }, { type: 'object', required: ['stopReason'] }] },
} as const;
