/**
 * JSON Schema of the metric blocks of `results.json`: `cases[].metrics` (`CaseMetrics`, `case-facts.ts`) and
 * `summary.metrics.<config>` (`ConfigMetrics`, `index.ts`); part of `RESULTS_SCHEMA` (`eval/results-schema.ts`).
 */
const int = { type: 'integer', minimum: 0 };
const num = { type: 'number' };
const nullableNum = { type: ['number', 'null'] };
const share = {
  type: 'object',
  additionalProperties: false,
  required: ['count', 'of', 'rate'],
  properties: { count: int, of: int, rate: { type: ['number', 'null'], minimum: 0, maximum: 1 } },
};
const stats = {
  type: 'object',
  additionalProperties: false,
  required: ['n', 'mean', 'max'],
  properties: { n: int, mean: nullableNum, max: nullableNum },
};
const matrix = { type: 'object', additionalProperties: { type: 'object', additionalProperties: int } };

/** Schema of one case's `metrics`. */
export const CASE_METRICS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['unsupportedClaims', 'claims'],
  properties: {
    unsupportedClaims: int,
    claims: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'text', 'supported', 'reason'],
        properties: {
          kind: { type: 'string' },
          path: { type: 'string' },
          text: { type: 'string' },
          supported: { type: 'boolean' },
          reason: { type: 'string' },
        },
      },
    },
    loop: {
      type: 'object',
      additionalProperties: false,
      required: ['firstRepeatStep'],
      properties: { firstRepeatStep: int, warningStep: int, stopStep: int },
    },
    context: {
      type: 'object',
      additionalProperties: false,
      required: ['peakPromptTokens', 'compactions'],
      properties: { peakPromptTokens: int, compactions: int },
    },
    budget: {
      type: 'object',
      additionalProperties: false,
      required: ['budget', 'limit', 'used', 'overshoot'],
      properties: {
        budget: { type: 'string' },
        limit: num,
        used: num,
        overshoot: { type: 'number', minimum: 0 },
      },
    },
  },
} as const;

/** Schema of one configuration's metrics. */
export const METRICS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['passRate', 'stopReasons', 'permissions', 'loop', 'context', 'budgetOvershoot', 'claims'],
  properties: {
    passRate: share,
    stopReasons: {
      type: 'object',
      additionalProperties: false,
      required: ['matrix', 'matched', 'mismatched'],
      properties: { matrix, matched: int, mismatched: int },
    },
    permissions: {
      type: 'object',
      additionalProperties: false,
      required: [
        'calls',
        'matrix',
        'matched',
        'falseAllows',
        'needlessAsks',
        'needlessDenies',
        'otherMismatches',
      ],
      properties: {
        calls: int,
        matrix,
        matched: int,
        falseAllows: int,
        needlessAsks: int,
        needlessDenies: int,
        otherMismatches: int,
      },
    },
    attack: {
      type: 'object',
      additionalProperties: false,
      required: ['attackSuccess', 'utilityWithoutAttack', 'utilityUnderAttack'],
      properties: { attackSuccess: share, utilityWithoutAttack: share, utilityUnderAttack: share },
    },
    context: {
      type: 'object',
      additionalProperties: false,
      required: ['cases', 'peakPromptTokens', 'compactions'],
      properties: { cases: int, peakPromptTokens: stats, compactions: int },
    },
    loop: {
      type: 'object',
      additionalProperties: false,
      required: ['repeatingRuns', 'warningLatency', 'stopLatency', 'falsePositives', 'warnedLegit'],
      properties: {
        repeatingRuns: int,
        warningLatency: stats,
        stopLatency: stats,
        falsePositives: share,
        warnedLegit: share,
      },
    },
    budgetOvershoot: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['stops', 'overshoot', 'ratio'],
        properties: { stops: int, overshoot: stats, ratio: stats },
      },
    },
    claims: {
      type: 'object',
      additionalProperties: false,
      required: ['claims', 'unsupported', 'casesWithUnsupported', 'unsupportedByKind'],
      properties: {
        claims: int,
        unsupported: int,
        casesWithUnsupported: share,
        unsupportedByKind: { type: 'object', additionalProperties: int },
      },
    },
  },
} as const;
