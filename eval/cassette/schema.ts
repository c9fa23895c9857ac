/**
 * JSON Schema (draft-07, compiled by ajv) of a cassette, version 1. See `./types.ts` for the
 * meaning of every field and `docs/recording-format.md` for the contract.
 *
 * Unknown keys are errors at the top level, in `meta`, `deps` and in each exchange (they are
 * typos more often than extensions); request and response bodies are free JSON. `nonModel` is
 * optional, so cassettes written before it existed stay valid version-1 cassettes.
 */

import { IMPORT_FORMATS } from './types.ts';

const nullableString = { type: ['string', 'null'] };

const headers = { type: 'object', additionalProperties: { type: 'string' } };

/** The JSON Schema of a cassette, version 1. */
export const CASSETTE_SCHEMA = {
  $id: 'https://harness-bench.dev/schema/cassette-v1.json',
  type: 'object',
  additionalProperties: false,
  required: ['format', 'version', 'meta', 'deps', 'exchanges'],
  properties: {
    $schema: { type: 'string' },
    expect: {
      type: 'object',
      description:
        'Expectations on the replayed behaviour, in the scenario expect format; checked by eval/expect/cassette.ts.',
    },
    expectFor: { type: 'object', description: 'Per configuration name, merged over expect.' },
    scorers: { type: 'object', description: 'Custom scorers: name → module path, relative to the cassette.' },
    departsAt: {
      type: 'object',
      description:
        'Per configuration name: the call at which a replay departs from the recording by design (docs/recording-format.md).',
    },
    format: { const: 'harness-bench.cassette' },
    version: { const: 1 },
    meta: {
      type: 'object',
      additionalProperties: false,
      required: [
        'id',
        'title',
        'recordedAt',
        'host',
        'modelRequested',
        'modelServed',
        'task',
        'toolSchemasHash',
        'responseOnly',
      ],
      properties: {
        id: { type: 'string', minLength: 1 },
        title: { type: 'string' },
        recordedAt: { type: 'string', minLength: 1 },
        host: nullableString,
        modelRequested: nullableString,
        modelServed: nullableString,
        task: nullableString,
        config: { type: ['object', 'string'] },
        toolSchemasHash: { type: ['string', 'null'], pattern: '^[0-9a-f]{64}$' },
        workspace: {
          type: 'object',
          additionalProperties: false,
          required: ['files'],
          properties: { files: { type: 'object', additionalProperties: { type: 'string' } } },
        },
        source: {
          type: 'object',
          additionalProperties: false,
          required: ['repository', 'path', 'commit', 'license'],
          properties: {
            repository: { type: 'string', minLength: 1 },
            path: { type: 'string', minLength: 1 },
            commit: { type: 'string', minLength: 1 },
            license: { type: 'string', minLength: 1 },
            lastChange: { type: 'string' },
          },
        },
        imported: {
          type: 'object',
          additionalProperties: false,
          required: ['format', 'file'],
          properties: {
            format: { enum: [...IMPORT_FORMATS] },
            file: { type: 'string', minLength: 1 },
            creator: { type: 'string' },
            rewritten: { type: 'array', items: { type: 'string' } },
          },
        },
        responseOnly: { type: 'boolean' },
        description: { type: 'string' },
      },
    },
    deps: {
      type: 'object',
      additionalProperties: false,
      properties: {
        clock: { type: 'array', items: { type: 'number' } },
        idSeed: { type: 'string' },
        randomSeed: { type: 'number' },
      },
    },
    exchanges: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['request', 'response'],
        properties: {
          request: {
            type: 'object',
            additionalProperties: false,
            required: ['method', 'path'],
            properties: {
              method: { type: 'string', minLength: 1 },
              path: { type: 'string', minLength: 1 },
              body: { type: ['object', 'null'] },
            },
          },
          response: {
            type: 'object',
            additionalProperties: false,
            required: ['status', 'headers'],
            properties: {
              status: { type: 'integer', minimum: 100, maximum: 599 },
              headers,
              body: {},
              events: {
                type: 'array',
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['data'],
                  properties: { data: { type: 'string' }, delayMs: { type: 'number', minimum: 0 } },
                },
              },
            },
            not: { required: ['body', 'events'] },
          },
        },
      },
    },
    nonModel: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['index', 'method', 'url', 'status', 'note'],
        properties: {
          index: { type: 'integer', minimum: 0 },
          method: { type: 'string', minLength: 1 },
          url: { type: 'string', minLength: 1 },
          status: { type: 'integer', minimum: 0, maximum: 599 },
          note: { type: 'string', minLength: 1 },
        },
      },
    },
    ledger: { type: 'object' },
  },
} as const;
