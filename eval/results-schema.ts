/**
 * JSON Schema of the results file (`results.json`, `eval/results.ts`), checked in as
 * `scenarios/schema/results.schema.json` by `npm run schemas`; `merge` validates its inputs with it.
 */
import { STOP_REASONS } from '../harness/loop/stop-reasons.ts';
import { COMPARISONS_SCHEMA, REPEATS_SCHEMA } from './compare/schema.ts';
import { CASE_METRICS_SCHEMA, METRICS_SCHEMA } from './metrics/schema.ts';
import type { CaseStatus } from './results.ts';

const counts = {
  type: 'object',
  additionalProperties: false,
  required: ['total', 'passed', 'failed', 'errored', 'skipped'],
  properties: {
    total: { type: 'integer' },
    passed: { type: 'integer' },
    failed: { type: 'integer' },
    errored: { type: 'integer' },
    skipped: { type: 'integer' },
  },
};

const statusIs = (status: CaseStatus) => ({
  properties: { status: { const: status } },
  required: ['status'],
});

/** JSON Schema of {@link ResultsFile} (checked in as `reports/schema/results.schema.json`). */
export const RESULTS_SCHEMA = {
  $id: 'https://harness-bench.dev/schema/results.json',
  type: 'object',
  additionalProperties: false,
  required: ['format', 'version', 'startedAt', 'durationMs', 'tool', 'configs', 'cases', 'summary'],
  properties: {
    format: { const: 'harness-bench.results' },
    version: { const: 1 },
    startedAt: { type: 'string' },
    durationMs: { type: 'number' },
    tool: {
      type: 'object',
      required: ['name', 'version'],
      properties: { name: { type: 'string' }, version: { type: 'string' } },
    },
    configs: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'file'],
        properties: {
          name: { type: 'string' },
          file: { type: 'string' },
          harness: {
            type: 'object',
            required: ['name', 'kind'],
            properties: {
              name: { type: 'string' },
              kind: { enum: ['ours', 'module', 'command'] },
              file: { type: 'string' },
            },
          },
        },
      },
    },
    harness: {
      type: 'object',
      required: ['name', 'kind'],
      properties: {
        name: { type: 'string' },
        kind: { enum: ['ours', 'module', 'command'] },
        file: { type: 'string' },
      },
    },
    cases: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: [
          'id',
          'kind',
          'config',
          'status',
          'stopReason',
          'file',
          'tags',
          'checks',
          'usage',
          'verdicts',
          'divergences',
        ],
        allOf: [
          { if: statusIs('fail'), then: { required: ['firstFailure'] } },
          { if: statusIs('error'), then: { required: ['error', 'firstFailure'] } },
          { if: statusIs('skipped'), then: { required: ['skip'] } },
        ],
        properties: {
          id: { type: 'string' },
          kind: { enum: ['scenario', 'recording'] },
          config: { type: 'string' },
          status: { enum: ['pass', 'fail', 'error', 'skipped'] },
          stopReason: { enum: [...STOP_REASONS, null] },
          stopDetail: { type: 'string' },
          file: { type: 'string' },
          title: { type: 'string' },
          tags: { type: 'array', items: { type: 'string' } },
          checks: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'pass'],
              properties: {
                name: { type: 'string' },
                pass: { type: 'boolean' },
                status: { enum: ['not_applicable'] },
                expected: {},
                observed: {},
                reason: { type: 'string' },
              },
            },
          },
          usage: { type: 'object' },
          verdicts: { type: 'object' },
          divergences: {
            type: 'array',
            items: {
              type: 'object',
              required: ['exchange', 'path', 'kind'],
              properties: {
                exchange: { type: 'integer' },
                path: { type: 'string' },
                kind: { enum: ['changed', 'missing', 'extra', 'omitted'] },
                recorded: {},
                replayed: {},
                omitted: { type: 'integer' },
                explained: { type: 'string' },
              },
            },
          },
          firstFailure: { type: 'string' },
          error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
          findings: { type: 'object' },
          attack: { type: 'object', required: ['succeeded'], properties: { succeeded: { type: 'boolean' } } },
          expectFor: { type: 'string' },
          harness: {
            type: 'object',
            required: ['name', 'kind'],
            properties: {
              name: { type: 'string' },
              kind: { enum: ['module', 'command'] },
              ending: {
                enum: ['no_request', 'final_answer', 'tool_calls', 'error_turn', 'script_exhausted'],
              },
              exitCode: { type: ['integer', 'null'] },
              timedOut: { type: 'string' },
              boxed: { type: 'boolean' },
              error: { type: 'string' },
              stopReason: { type: 'string' },
            },
          },
          metrics: CASE_METRICS_SCHEMA,
          transcript: { type: 'string' },
          skip: {
            type: 'object',
            additionalProperties: false,
            required: ['requires', 'reason', 'fix', 'declared'],
            properties: {
              requires: { type: 'array', items: { type: 'string' } },
              reason: { type: 'string' },
              fix: { type: 'string' },
              declared: { type: 'boolean' },
            },
          },
        },
      },
    },
    summary: {
      type: 'object',
      required: ['total', 'passed', 'failed', 'errored', 'skipped', 'byKind', 'byConfig'],
      properties: {
        total: { type: 'integer' },
        passed: { type: 'integer' },
        failed: { type: 'integer' },
        errored: { type: 'integer' },
        skipped: { type: 'integer' },
        byKind: { type: 'object', additionalProperties: counts },
        byConfig: { type: 'object', additionalProperties: counts },
        attackSuccessRate: {
          type: 'object',
          additionalProperties: { type: 'number', minimum: 0, maximum: 1 },
        },
        metrics: { type: 'object', additionalProperties: METRICS_SCHEMA },
        notApplicableChecks: { type: 'integer', minimum: 1 },
      },
    },
    comparisons: COMPARISONS_SCHEMA,
    repeats: REPEATS_SCHEMA,
    shard: {
      type: 'object',
      additionalProperties: false,
      required: ['index', 'count', 'planCases', 'assigned', 'fingerprint'],
      properties: {
        index: { type: 'integer', minimum: 1 },
        count: { type: 'integer', minimum: 1 },
        planCases: { type: 'integer', minimum: 0 },
        assigned: { type: 'integer', minimum: 0 },
        fingerprint: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
      },
    },
  },
} as const;
