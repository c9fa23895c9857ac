/**
 * The JSON Schema (draft-07) of scenario files, built from the fixed vocabularies (stop reasons,
 * error types, events, verdicts) and the harness configuration schema, so they cannot drift.
 * `scenarios/schema/scenario.schema.json` is this object, checked in for editors;
 * `eval/write-schemas.ts` regenerates it and `eval/write-schemas.test.ts` keeps them equal.
 */
import { CONFIG_SCHEMA } from '../../harness/config.ts';
import { EVENT_TYPES } from '../../harness/events.ts';
import { STOP_REASONS } from '../../harness/loop/stop-reasons.ts';
import { ERROR_TYPES } from '../../harness/tools/types.ts';
import { REQUIREMENT_NAMES, REQUIREMENT_PATTERN } from '../requirements.ts';

const VERDICTS = ['allow', 'ask:approved', 'ask:denied', 'deny', 'none'];
const EFFECTS = ['read', 'write', 'irreversible'];

const stringList = { type: 'array', items: { type: 'string' } };
const nonNegativeInt = { type: 'integer', minimum: 0 };
const nonNegative = { type: 'number', minimum: 0 };
const callIdMap = (value: Record<string, unknown>) => ({
  type: 'object',
  propertyNames: { type: 'string', minLength: 1 },
  additionalProperties: value,
});

/** The configuration schema without its own `$id`, so it embeds as a plain definition. */
function configDefinition(): Record<string, unknown> {
  const { $id: _id, ...rest } = structuredClone(CONFIG_SCHEMA) as Record<string, unknown>;
  return {
    ...rest,
    description:
      'A partial harness configuration merged over the one under test (objects merge deeply, arrays replace).',
  };
}

/** The scenario schema object (draft-07). Built once; do not mutate. */
export const SCENARIO_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://harness-bench.dev/schema/scenario.json',
  title: 'harness-bench scenario, version 1',
  description:
    'A task, a workspace, a scripted model and what must hold afterwards; every field is described in docs/scenario-format.md of the harness-bench repository. Unknown keys are errors.',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'task', 'model', 'expect'],
  properties: {
    $schema: { type: 'string', description: 'Editor hint; ignored.' },
    id: {
      type: 'string',
      minLength: 1,
      pattern: '^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$',
      description: 'Unique, path-like.',
    },
    title: { type: 'string' },
    tags: stringList,
    source: { type: 'string', description: 'The public report the case comes from, e.g. owner/repo#123.' },
    task: { type: 'string', minLength: 1 },
    requires: {
      type: 'array',
      uniqueItems: true,
      items: { type: 'string', pattern: REQUIREMENT_PATTERN },
      description: `What this machine must provide, or the case is skipped with the fix: ${REQUIREMENT_NAMES.join(', ')}, or command:NAME (docs/scenario-format.md, "Prerequisites").`,
    },
    config: { $ref: '#/definitions/config' },
    tools: {
      ...stringList,
      description: 'Built-in tools enabled for this case (default: the configuration’s set).',
    },
    workspace: { $ref: '#/definitions/workspace' },
    fakeTools: {
      type: 'object',
      propertyNames: { type: 'string', minLength: 1 },
      additionalProperties: { $ref: '#/definitions/fakeTool' },
    },
    approver: { $ref: '#/definitions/approver' },
    model: { type: 'array', minItems: 1, items: { $ref: '#/definitions/turn' } },
    expect: { $ref: '#/definitions/expect' },
  },
  definitions: {
    config: configDefinition(),
    content: {
      description: 'File content: text, or a generator for bulk data.',
      anyOf: [
        { type: 'string' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['$gen', 'text', 'count'],
          properties: { $gen: { const: 'repeat' }, text: { type: 'string' }, count: nonNegativeInt },
        },
        {
          type: 'object',
          additionalProperties: false,
          required: ['$gen', 'count', 'pattern'],
          properties: { $gen: { const: 'lines' }, count: nonNegativeInt, pattern: { type: 'string' } },
        },
      ],
    },
    workspace: {
      type: 'object',
      additionalProperties: false,
      properties: {
        files: { type: 'object', additionalProperties: { $ref: '#/definitions/content' } },
        dirs: stringList,
        symlinks: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
        outside: { type: 'object', additionalProperties: { $ref: '#/definitions/content' } },
      },
    },
    fakeTool: {
      type: 'object',
      additionalProperties: false,
      properties: {
        description: { type: 'string' },
        parameters: { type: 'object' },
        effect: { enum: EFFECTS },
        untrusted: { type: 'boolean' },
        results: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            properties: { when: { type: 'object' }, output: { type: 'string' }, error: { type: 'string' } },
            oneOf: [{ required: ['output'] }, { required: ['error'] }],
          },
        },
      },
    },
    approver: {
      type: 'object',
      additionalProperties: false,
      properties: {
        default: { enum: ['approve', 'deny'] },
        rules: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['tool', 'answer'],
            properties: {
              tool: { type: 'string', minLength: 1 },
              match: { type: 'string' },
              answer: { enum: ['approve', 'deny'] },
            },
          },
        },
      },
    },
    toolCall: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'arguments'],
      properties: {
        id: { type: 'string' },
        name: { type: 'string' },
        arguments: {
          description:
            'A string is sent verbatim (invalid JSON allowed); any other JSON value is sent as that value.',
        },
      },
    },
    turn: {
      description: 'One model response, or an HTTP error.',
      type: 'object',
      if: { required: ['error'] },
      then: {
        additionalProperties: false,
        properties: {
          error: {
            type: 'object',
            additionalProperties: false,
            required: ['status'],
            properties: { status: { type: 'integer', minimum: 100, maximum: 599 }, body: {} },
          },
        },
      },
      else: {
        additionalProperties: false,
        properties: {
          content: { type: ['string', 'null'] },
          tool_calls: { type: 'array', items: { $ref: '#/definitions/toolCall' } },
          finish_reason: { enum: ['stop', 'tool_calls', 'length', 'content_filter', ''] },
          usage: {
            type: 'object',
            additionalProperties: false,
            required: ['prompt_tokens', 'completion_tokens'],
            properties: { prompt_tokens: nonNegativeInt, completion_tokens: nonNegativeInt },
          },
          reasoning_content: { type: 'string' },
          stream: { type: 'boolean' },
          repeat: { type: 'integer', minimum: 1 },
        },
      },
    },
    evidence: {
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
    },
    expect: {
      type: 'object',
      additionalProperties: false,
      required: ['stopReason'],
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
          properties: { includes: stringList, absent: { type: 'boolean' } },
        },
        events: { type: 'array', items: { enum: [...EVENT_TYPES] } },
        eventsAbsent: { type: 'array', items: { enum: [...EVENT_TYPES] } },
        transcript: { const: true, description: 'Always checked; there is no opt-out.' },
      },
    },
  },
} as const;
