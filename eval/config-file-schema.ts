/**
 * The JSON Schema of a configuration file (`configs/*.json`, `-c FILE`):
 * `scenarios/schema/config.schema.json`. It is the harness configuration's schema
 * (`harness/config.ts` CONFIG_SCHEMA, which a scenario's `config` block also uses) plus the keys
 * only the bench reads from a file (`eval/config-load.ts` splitBenchKeys): `baseline.tolerances`
 * (the baseline gate, `run --baseline`: metric → a number ≥ 0 in the metric's unit or a
 * percentage like `"5%"`), `scorers` (name → module path) and `sandbox: "unavailable"`.
 */
import { CONFIG_SCHEMA } from '../harness/config.ts';

const TOLERANCE = {
  description:
    "How far the metric may worsen before the gate fails: an amount in the metric's unit, or a percentage of the baseline value.",
  anyOf: [
    { type: 'number', minimum: 0 },
    { type: 'string', pattern: '^\\s*\\d+(\\.\\d+)?\\s*%?\\s*$' },
  ],
} as const;

/** The schema of a configuration file: the harness configuration and the bench's own keys. */
export const CONFIG_FILE_SCHEMA = {
  ...CONFIG_SCHEMA,
  properties: {
    ...CONFIG_SCHEMA.properties,
    sandbox: {
      anyOf: [
        CONFIG_SCHEMA.properties.sandbox,
        {
          const: 'unavailable',
          description: 'Run every scenario with the sandbox made unavailable (the bench, not the harness).',
        },
      ],
    },
    baseline: {
      type: 'object',
      description:
        'The baseline gate (run --baseline FILE): tolerances per metric; a metric beyond its tolerance is a regression.',
      additionalProperties: false,
      required: ['tolerances'],
      properties: {
        tolerances: {
          type: 'object',
          description: 'Metric name (a headline metric or a dotted metric path) → tolerance.',
          propertyNames: { type: 'string', minLength: 1 },
          additionalProperties: TOLERANCE,
        },
      },
    },
    scorers: {
      type: 'object',
      description: 'Custom scorers: name → JS/TS module path, relative to this file.',
      propertyNames: { type: 'string', minLength: 1 },
      additionalProperties: { type: 'string', minLength: 1 },
    },
  },
} as const;
