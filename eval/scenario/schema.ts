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
import { CLAIM_KINDS } from '../claims/extract.ts';
import { REQUIREMENT_NAMES, REQUIREMENT_PATTERN } from '../requirements.ts';

const APPROVER_ANSWERS = ['approve', 'deny', 'approve-shape'];
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

/** The configuration schema without its own `$id`, so it embeds as a plain definition. */
function configDefinition(): Record<string, unknown> {
  const { $id: _id, ...rest } = structuredClone(CONFIG_SCHEMA) as Record<string, unknown>;
  return {
    ...rest,
    description:
      'A partial harness configuration merged over the one under test (objects merge deeply, arrays replace).',
  };
}

/** `expect`: what must hold after the run (`docs/scenario-format.md`, "Expectations"). */
const EXPECT_DEFINITION = {
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

/** A block of `expectFor`: the keys of `expect`, none required, merged over `expect`. */
const { required: _required, ...EXPECT_OVERRIDE } = EXPECT_DEFINITION;

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
      additionalProperties: { $ref: '#/definitions/expectOverride' },
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
          finish_reason: { enum: ['stop', 'tool_calls', 'length', ''] },
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
    textPattern: {
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
    },
    expect: EXPECT_DEFINITION,
    expectOverride: EXPECT_OVERRIDE,
  },
} as const;
