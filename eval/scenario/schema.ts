/**
 * The JSON Schema (draft-07) of scenario files, built from the fixed vocabularies (stop reasons,
 * error types, events, verdicts) and the harness configuration schema, so they cannot drift.
 * `scenarios/schema/scenario.schema.json` is this object, checked in for editors;
 * `eval/write-schemas.ts` regenerates it and `eval/write-schemas.test.ts` keeps them equal.
 */
import { CONFIG_SCHEMA } from '../../harness/config.ts';
import { EXPECT_DEFINITIONS } from '../expect/schema.ts';
import { REQUIREMENT_NAMES, REQUIREMENT_PATTERN } from '../requirements.ts';

const APPROVER_ANSWERS = ['approve', 'deny', 'approve-shape'];
const EFFECTS = ['read', 'write', 'irreversible'];

const stringList = { type: 'array', items: { type: 'string' } };
const nonNegativeInt = { type: 'integer', minimum: 0 };

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
    conventions: {
      type: 'object',
      additionalProperties: false,
      required: ['ours'],
      properties: {
        ours: { type: 'string', minLength: 1 },
        checks: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: { enum: Object.keys(EXPECT_DEFINITIONS.expectations.properties) },
          description:
            'Only these expectations are our convention: a foreign harness is scored on the rest, and these are not_applicable for it.',
        },
      },
      description:
        'The case tests a convention of our harness, not a fault every harness must handle: ours is the reason. Not scored for a foreign harness unless its adapter opts in (docs/adapters.md); with checks, only those expectations are left out.',
    },
    roundTrip: {
      type: 'object',
      additionalProperties: false,
      required: ['apiKey'],
      properties: {
        apiKey: {
          type: 'string',
          minLength: 8,
          description: 'The API key the harness sends: never recorded.',
        },
        env: {
          type: 'object',
          propertyNames: { pattern: 'KEY|TOKEN|SECRET|PASSWORD|PASSWD|COOKIE|CREDENTIAL|AUTH' },
          additionalProperties: { type: 'string', minLength: 8 },
          description:
            'Secret-named variables of the recorder’s environment (a name holding, in capitals, KEY, TOKEN, SECRET, PASSWORD, PASSWD, COOKIE, CREDENTIAL or AUTH; values of 8 characters or more): each value must pass through the recording (put it in a workspace file the script reads) and be redacted.',
        },
      },
      description:
        'Record this scenario through the pass-through proxy with these planted secrets, then check the cassette is redacted and replays clean (docs/recording-format.md, "Round trips").',
    },
    source: { type: 'string', description: 'The public report the case comes from, e.g. owner/repo#123.' },
    task: { type: 'string', minLength: 1 },
    requires: {
      type: 'array',
      uniqueItems: true,
      items: { type: 'string', pattern: REQUIREMENT_PATTERN },
      description: `What this machine must provide, or the case is skipped with the fix: ${REQUIREMENT_NAMES.join(', ')}, or command:NAME (docs/scenario-format.md, "Prerequisites").`,
    },
    config: { $ref: '#/definitions/config' },
    sandbox: {
      const: 'unavailable',
      description:
        'The sandbox the configuration picks is missing for this case: bash must answer sandbox_unavailable and run nothing.',
    },
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
    scorers: {
      type: 'object',
      description:
        'Custom scorers: name → JS/TS module path, relative to this file; used from expect.scorers.',
      propertyNames: { type: 'string', minLength: 1 },
      additionalProperties: { type: 'string', minLength: 1 },
    },
    approver: { $ref: '#/definitions/approver' },
    model: { type: 'array', minItems: 1, items: { $ref: '#/definitions/turn' } },
    expect: { $ref: '#/definitions/expect' },
    expectFor: {
      type: 'object',
      description:
        'Per configuration name (file stem, or name= of -c name=path): expectations merged over expect when that configuration is under test.',
      propertyNames: { type: 'string', minLength: 1 },
      additionalProperties: { $ref: '#/definitions/expectations' },
    },
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
        default: { enum: APPROVER_ANSWERS },
        rules: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['tool', 'answer'],
            properties: {
              tool: { type: 'string', minLength: 1 },
              match: { type: 'string' },
              answer: { enum: APPROVER_ANSWERS },
              shape: {
                type: 'string',
                minLength: 1,
                description: 'With approve-shape: the shape to grant (default: the one the harness offers).',
              },
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
    ...EXPECT_DEFINITIONS,
  },
} as const;
