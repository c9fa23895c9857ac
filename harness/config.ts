/**
 * `HarnessConfig`: every knob of the harness, its JSON Schema, its defaults and the deep merge
 * used by scenario overrides (objects merge deeply, arrays replace).
 */
import type { PolicyAction } from './policy/types.ts';
import { DEFAULT_SENSITIVE_PATHS, type SensitivePath } from './policy/sensitive-paths.ts';
import type { EffectClass } from './tools/types.ts';
import { DEFAULT_TOOL_EFFECTS } from './tool-effect-defaults.ts';

/** An ordered bash rule; last match wins. `pattern`: `*` any characters, `?` one, rest literal. */
export interface BashRule {
  pattern: string;
  action: PolicyAction;
}

/** An ordered path rule over resolved paths relative to the workspace (picomatch, `dot: true`). */
export interface PathRule {
  pattern: string;
  access: 'read' | 'write';
  action: PolicyAction;
}

/** Prices in USD per million tokens. */
export interface Price {
  inputUsdPerMTok: number;
  outputUsdPerMTok: number;
}

/** How `ask` verdicts are answered: see `docs/architecture.md` §5. */
export type PermissionMode = 'interactive' | 'headless' | 'plan' | 'auto';

/** The whole harness configuration, every field present (see {@link DEFAULT_CONFIG}). */
export interface HarnessConfig {
  /** Model name and extra request body fields (temperature, max_tokens, tool_choice, …). */
  model: { name: string; settings: Record<string, unknown> };
  systemPrompt: string;
  /** Built-in tools enabled by default. */
  tools: string[];
  limits: {
    /** Model turns, wrap-up turn excluded. */
    maxTurns: number;
    /** Tool calls the model may request in the whole run. */
    maxToolCalls: number;
    /** Prompt plus completion tokens over all model calls. */
    maxTokens: number;
    /** USD over all model calls. */
    maxCostUsd: number;
    /** Wall time of the run in ms (injected clock). */
    maxWallMs: number;
    /** Turns in a row cut off by the output token limit before the run stops with `output_truncated`. */
    maxConsecutiveTruncations: number;
    /** On budget exhaustion, spend one reserved tool-less turn on a summary (the stop reason stays the budget's). */
    wrapUpTurn: boolean;
  };
  loop: {
    /** The n-th identical call with an unchanged outcome is answered with `repeated_call` and not run. */
    warnAt: number;
    /** The n-th identical call with an unchanged outcome ends the run with `repeated_tool_call`. */
    stopAt: number;
  };
  context: {
    /** The model's context window in tokens. */
    windowTokens: number;
    /** Fraction of the window at which compaction starts. */
    compactAt: number;
    /** Largest tool output, in characters, before it is cut with a marked elision. */
    toolOutputMaxChars: number;
    /**
     * Largest tool output as a share of the window, in tokens (the `cap` layer): above it the output keeps
     * head and tail.
     */
    toolOutputMaxShare: number;
    /** Share of the window above which old tool outputs become stubs (the `stub` layer). */
    stubAt: number;
    /** Most recent turns (an assistant turn with its results, or a user message) that stubs never touch. */
    keepRecentTurns: number;
    /** Share of the window kept verbatim (the most recent whole turns) when compacting. */
    keepRecentShare: number;
    /**
     * Folder of spill files, relative to the workspace (readable with `read_file`); one subfolder per session
     * or run.
     */
    spillDir: string;
    /**
     * Each context layer on or off, so configurations can be compared: `cap` (window-relative
     * output cap), `spill` (full output to a file), `stub` (old outputs → stubs), `drop` (oldest
     * turns removed), `compact` (model-written summary at `compactAt`), `reminder` (late reminder).
     */
    layers: {
      cap: boolean;
      spill: boolean;
      stub: boolean;
      drop: boolean;
      compact: boolean;
      reminder: boolean;
    };
  };
  /**
   * Sessions: append-only JSONL files in `dir` (relative to the workspace). `enabled` records a
   * new session per run; `resume` continues the session of that id (and records to it).
   */
  session: { enabled: boolean; dir: string; resume: string | null };
  permissions: {
    mode: PermissionMode;
    /** `continue`: a deny is returned to the model; `stop`: the run ends with `policy_violation`. */
    onDeny: 'continue' | 'stop';
    bash: BashRule[];
    paths: PathRule[];
    /** The verdict for a call no rule decides, by effect class. */
    effects: Record<EffectClass, PolicyAction>;
    /**
     * Paths inside the workspace that ask at least, whatever the path rules say (git hooks, CI
     * files, package-manager configuration, credentials); see `policy/sensitive-paths.ts`.
     */
    sensitivePaths: SensitivePath[];
  };
  sandbox: { kind: 'auto' | 'bwrap' | 'seatbelt' | 'none' };
  /**
   * Subagents (`task`): turns per child, nesting depth (0: no subagents), children running at
   * once, and children per top-level run.
   */
  subagent: { maxTurns: number; maxDepth: number; maxConcurrency: number; maxTotal: number };
  taint: {
    /** Track untrusted content (and escape reserved tags in tool output). */
    enabled: boolean;
    /**
     * After untrusted content entered the context, irreversible and network-reaching calls `ask` (never
     * auto-approved) or are denied.
     */
    onTainted: 'ask' | 'deny';
    /**
     * Tools whose output counts as untrusted beside those that declare `untrusted: true` (e.g. `read_file`
     * for repositories you do not trust).
     */
    untrustedTools: string[];
  };
  /** Prices by model name; `*` applies to models not listed. */
  pricing: Record<string, Price>;
  /** What to do when the assistant writes a tool call as text: correct it once, or take the text as the answer. */
  textToolCalls: 'correct' | 'ignore';
  /**
   * Replays of recordings made by another harness: the effect class of each recorded tool, so
   * the permission policy decides recorded calls (`eval/replay/tool-effects.ts`). `toolEffects`
   * are tried in order, first match wins: globs (case-insensitive) over the tool name in
   * snake_case and each of its word suffixes. A tool no rule matches gets `unknownToolEffect`.
   * A `<cassette>.tools.json` sidecar's rules come before these.
   */
  replay: { toolEffects: { pattern: string; effect: EffectClass }[]; unknownToolEffect: EffectClass };
}

/** A partial configuration: every object optional all the way down. */
export type PartialConfig = { [K in keyof HarnessConfig]?: DeepPartial<HarnessConfig[K]> };
type DeepPartial<T> = T extends unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

/**
 * Defaults: every budget is non-zero, so a run can never go on forever (Inspect and
 * mini-swe-agent leave limits off and users report hangs, UKGovernmentBEIS/inspect_ai#1585).
 * @default maxTurns 50, maxToolCalls 200, maxTokens 2,000,000, maxCostUsd 5, maxWallMs 30 min
 */
export const DEFAULT_CONFIG: HarnessConfig = {
  model: { name: 'gpt-4o-mini', settings: {} },
  systemPrompt:
    'You are a careful coding agent. Use the tools to inspect and change the workspace. Answer briefly when done.',
  tools: ['read_file', 'write_file', 'str_replace', 'list_dir'],
  limits: {
    maxTurns: 50,
    maxToolCalls: 200,
    maxTokens: 2_000_000,
    maxCostUsd: 5,
    maxWallMs: 1_800_000,
    maxConsecutiveTruncations: 3,
    wrapUpTurn: false,
  },
  loop: { warnAt: 4, stopAt: 5 },
  context: {
    windowTokens: 128_000,
    compactAt: 0.8,
    toolOutputMaxChars: 30_000,
    toolOutputMaxShare: 0.1,
    stubAt: 0.5,
    keepRecentTurns: 3,
    keepRecentShare: 0.25,
    spillDir: '.harness-bench/spill',
    layers: { cap: true, spill: true, stub: true, drop: true, compact: true, reminder: true },
  },
  session: { enabled: false, dir: '.harness-bench/sessions', resume: null },
  permissions: {
    mode: 'interactive',
    onDeny: 'continue',
    bash: [{ pattern: '*', action: 'ask' }],
    paths: [],
    effects: { read: 'allow', write: 'ask', irreversible: 'ask' },
    sensitivePaths: DEFAULT_SENSITIVE_PATHS.map((entry) => ({ ...entry })),
  },
  sandbox: { kind: 'auto' },
  subagent: { maxTurns: 10, maxDepth: 1, maxConcurrency: 1, maxTotal: 16 },
  taint: { enabled: true, onTainted: 'ask', untrustedTools: [] },
  pricing: { '*': { inputUsdPerMTok: 1, outputUsdPerMTok: 4 } },
  textToolCalls: 'correct',
  replay: { toolEffects: DEFAULT_TOOL_EFFECTS.map((rule) => ({ ...rule })), unknownToolEffect: 'write' },
};

const action = { enum: ['allow', 'ask', 'deny'] };
const positiveInt = { type: 'integer', minimum: 1 };
const positive = { type: 'number', exclusiveMinimum: 0 };

/** JSON Schema of a partial configuration (config files and scenario `config` blocks). Unknown keys are errors. */
export const CONFIG_SCHEMA = {
  $id: 'https://harness-bench.dev/schema/config.json',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    description: { type: 'string' },
    model: {
      type: 'object',
      additionalProperties: false,
      properties: { name: { type: 'string', minLength: 1 }, settings: { type: 'object' } },
    },
    systemPrompt: { type: 'string' },
    tools: { type: 'array', items: { type: 'string' } },
    limits: {
      type: 'object',
      additionalProperties: false,
      properties: {
        maxTurns: positiveInt,
        maxToolCalls: positiveInt,
        maxTokens: positiveInt,
        maxCostUsd: positive,
        maxWallMs: positiveInt,
        maxConsecutiveTruncations: positiveInt,
        wrapUpTurn: { type: 'boolean' },
      },
    },
    loop: {
      type: 'object',
      additionalProperties: false,
      properties: { warnAt: { type: 'integer', minimum: 2 }, stopAt: { type: 'integer', minimum: 2 } },
    },
    context: {
      type: 'object',
      additionalProperties: false,
      properties: {
        windowTokens: positiveInt,
        compactAt: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
        toolOutputMaxChars: positiveInt,
        toolOutputMaxShare: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
        stubAt: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
        keepRecentTurns: { type: 'integer', minimum: 0 },
        keepRecentShare: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
        spillDir: { type: 'string', minLength: 1 },
        layers: {
          type: 'object',
          additionalProperties: false,
          properties: {
            cap: { type: 'boolean' },
            spill: { type: 'boolean' },
            stub: { type: 'boolean' },
            drop: { type: 'boolean' },
            compact: { type: 'boolean' },
            reminder: { type: 'boolean' },
          },
        },
      },
    },
    session: {
      type: 'object',
      additionalProperties: false,
      properties: {
        enabled: { type: 'boolean' },
        dir: { type: 'string', minLength: 1 },
        resume: {
          anyOf: [{ type: 'string', pattern: '^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$' }, { type: 'null' }],
        },
      },
    },
    permissions: {
      type: 'object',
      additionalProperties: false,
      properties: {
        mode: { enum: ['interactive', 'headless', 'plan', 'auto'] },
        onDeny: { enum: ['continue', 'stop'] },
        bash: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['pattern', 'action'],
            properties: { pattern: { type: 'string', minLength: 1 }, action },
          },
        },
        paths: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['pattern', 'access', 'action'],
            properties: {
              pattern: { type: 'string', minLength: 1 },
              access: { enum: ['read', 'write'] },
              action,
            },
          },
        },
        effects: {
          type: 'object',
          additionalProperties: false,
          properties: { read: action, write: action, irreversible: action },
        },
        sensitivePaths: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['pattern', 'access'],
            properties: {
              pattern: { type: 'string', minLength: 1 },
              access: { enum: ['read', 'write', 'any'] },
            },
          },
        },
      },
    },
    sandbox: {
      type: 'object',
      additionalProperties: false,
      properties: { kind: { enum: ['auto', 'bwrap', 'seatbelt', 'none'] } },
    },
    subagent: {
      type: 'object',
      additionalProperties: false,
      properties: {
        maxTurns: positiveInt,
        maxDepth: { type: 'integer', minimum: 0 },
        maxConcurrency: positiveInt,
        maxTotal: positiveInt,
      },
    },
    taint: {
      type: 'object',
      additionalProperties: false,
      properties: {
        enabled: { type: 'boolean' },
        onTainted: { enum: ['ask', 'deny'] },
        untrustedTools: { type: 'array', items: { type: 'string', minLength: 1 } },
      },
    },
    pricing: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['inputUsdPerMTok', 'outputUsdPerMTok'],
        properties: {
          inputUsdPerMTok: { type: 'number', minimum: 0 },
          outputUsdPerMTok: { type: 'number', minimum: 0 },
        },
      },
    },
    textToolCalls: { enum: ['correct', 'ignore'] },
    replay: {
      type: 'object',
      additionalProperties: false,
      properties: {
        toolEffects: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['pattern', 'effect'],
            properties: {
              pattern: { type: 'string', minLength: 1 },
              effect: { enum: ['read', 'write', 'irreversible'] },
            },
          },
        },
        unknownToolEffect: { enum: ['read', 'write', 'irreversible'] },
      },
    },
  },
} as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Deep merge: objects merge key by key, arrays and scalars in `override` replace. Neither input
 * is mutated. Keys `$schema` and `description` of config files are dropped.
 */
export function mergeConfig<T>(base: T, override: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(override))
    return (override === undefined ? base : override) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (key === '$schema' || key === 'description' || value === undefined) continue;
    out[key] = isPlainObject(out[key]) && isPlainObject(value) ? mergeConfig(out[key], value) : value;
  }
  return out as T;
}

/** The price for a model: its own entry, else `*`, else zero. */
export function priceFor(config: HarnessConfig, model: string): Price {
  return config.pricing[model] ?? config.pricing['*'] ?? { inputUsdPerMTok: 0, outputUsdPerMTok: 0 };
}
