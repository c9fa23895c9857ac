/**
 * The `Scenario` type: a hand-written TS mirror of the scenario file contract, version 1
 * (`docs/scenario-format.md`). The JSON Schema in `schema.ts` validates the same
 * shape; a loaded scenario has passed that schema and the loader's semantic checks.
 */
import type { PartialConfig } from '../../harness/config.ts';
import type { HarnessEventType } from '../../harness/events.ts';
import type { StopReason } from '../../harness/loop/stop-reasons.ts';
import type { ScriptedTurn } from '../../harness/model/scripted-model.ts';
import type { Verdict } from '../../harness/policy/types.ts';
import type { EffectClass, ErrorType } from '../../harness/tools/types.ts';
import type { ClaimKind } from '../claims/extract.ts';
import type { Requirement } from '../requirements.ts';

export type { ScriptedTurn } from '../../harness/model/scripted-model.ts';

/** `text` repeated `count` times (no separator). */
export interface RepeatGen {
  $gen: 'repeat';
  text: string;
  count: number;
}

/** `count` lines, each `pattern` with `{i}` replaced by the 1-based line number, each ending in `\n`. */
export interface LinesGen {
  $gen: 'lines';
  count: number;
  pattern: string;
}

/** File content: literal text or a generator for bulk data. */
export type FileContent = string | RepeatGen | LinesGen;

/** The temp workspace and the separate `$OUTSIDE` folder. Paths are relative, `/`-separated. */
export interface WorkspaceSpec {
  /** Relative path → content, created inside the workspace (parent folders made as needed). */
  files?: Record<string, FileContent>;
  /** Extra (empty) folders inside the workspace. */
  dirs?: string[];
  /** Relative link path → target; the target may use `$WS` and `$OUTSIDE`. */
  symlinks?: Record<string, string>;
  /**
   * Relative path → content, created under `$OUTSIDE`; any change there fails the case unless
   * `expect.outsideChanged`.
   */
  outside?: Record<string, FileContent>;
}

/** One scripted result of a fake tool. `when` is an argument subset (deep-equal per key); absent matches any call. */
export type FakeResult =
  | { when?: Record<string, unknown>; output: string }
  | { when?: Record<string, unknown>; error: string };

/** A scripted tool for one case. */
export interface FakeToolSpec {
  description?: string;
  /** JSON Schema of the arguments. @default `{ "type": "object" }` */
  parameters?: Record<string, unknown>;
  /** @default 'read' */
  effect?: EffectClass;
  /** Content from an untrusted source (web page, issue, e-mail): taint tracking reacts to it. */
  untrusted?: boolean;
  results?: FakeResult[];
}

/**
 * An approver's answer: `approve`, `deny`, or `approve-shape` (approve and grant a shape for the
 * session, as "always allow this" does).
 */
export type ApproverAnswer = 'approve' | 'deny' | 'approve-shape';

/** An approver rule: `match` is a command pattern for bash, a glob over the resolved path for file tools. */
export interface ApproverRule {
  /** Tool name, or `*` for any tool. */
  tool: string;
  /** Absent: every call of the tool. */
  match?: string;
  answer: ApproverAnswer;
  /** With `approve-shape`: the shape to grant (`npm test*`, `src/**`); default: the one the harness offers. */
  shape?: string;
}

/** Answers to `ask` in interactive mode: the last matching rule wins, else `default`. */
export interface ApproverSpec {
  default?: ApproverAnswer;
  rules?: ApproverRule[];
}

/**
 * Session grants (`eval/expect/grants.ts`): `given`, exactly the grants the approver gave, as
 * `tool:shape` (`bash:npm test*`); `usedBy`, exactly the call ids a grant approved without asking.
 */
export interface GrantsExpectation {
  given?: string[];
  usedBy?: string[];
}

/** Expected facts about one tool result. `includes`: case-insensitive substrings of the model-visible text. */
export interface ResultExpectation {
  ok?: boolean;
  errorType?: ErrorType;
  retryable?: boolean;
  includes?: string[];
}

/** A fact checked after the run. Paths may use `$WS` and `$OUTSIDE`; relative paths are under the workspace. */
export type Evidence =
  | { file: string; exists?: boolean; contains?: string; equals?: string }
  | { command: string; exitCode: number };

/** Upper bounds on usage. Units: turns, calls, tokens, USD, ms. */
export interface BudgetExpectation {
  turns?: number;
  toolCalls?: number;
  tokens?: number;
  promptTokens?: number;
  costUsd?: number;
  wallMs?: number;
}

/** Injection goals; the attack succeeded when any goal was realised. */
export interface AttackExpectation {
  /** Call ids that must not be executed. */
  goalCalls?: string[];
  /** Files that must not exist afterwards. */
  goalFiles?: string[];
  /** Command patterns (`*` any characters) no executed bash command may match. */
  goalCommands?: string[];
}

/**
 * A tool call as `calledBefore` describes it: the `tool`, a subset of its arguments (`args`,
 * deep-equal per key) and/or a `command` pattern (`*` any characters) for bash. Every field given
 * must match. `ok` (default `true`): the call must also have succeeded (exit code 0 for a command).
 */
export interface CallPattern {
  tool?: string;
  args?: Record<string, unknown>;
  command?: string;
  ok?: boolean;
}

/**
 * What the final answer must say. `includes`: case-insensitive substrings, all present;
 * `matches`: regular expressions (`/body/flags` or a bare body), all match; `excludes`: regular
 * expressions, none matches; `absent`: there is no final answer (or it is empty).
 */
export interface FinalAnswerExpectation {
  includes?: string[];
  matches?: string[];
  excludes?: string[];
  absent?: boolean;
}

/** An event a `sequence` item names: a type, or a type with fields that must equal the event's. */
export type EventMatcher = HarnessEventType | ({ type: HarnessEventType } & Record<string, unknown>);

/**
 * The object form of `events` (`eval/expect/events.ts`): types `present` and `absent`, a
 * `sequence` in order, a `count` per type (exact, or `{ min, max }`), in the `scope` chosen:
 * `top` (default, the top-level run), `each` (every scope on its own), `all` (the whole stream),
 * or a `task` call id (that subagent's events).
 */
export interface EventsExpectation {
  present?: HarnessEventType[];
  absent?: HarnessEventType[];
  sequence?: EventMatcher[];
  count?: Partial<Record<HarnessEventType, number | { min?: number; max?: number }>>;
  scope?: 'top' | 'each' | 'all' | (string & {});
}

/** Text to look for: a case-insensitive substring, or a regular expression (`/body/flags` or a bare body). */
export type TextPattern = string | { regex: string };

/**
 * One item of `requests` (`eval/expect/requests.ts`): which requests (`at`: 1-based index,
 * `first`, `last`, `all` (default) or `stored`, the conversation as kept), which of their
 * messages (`messages`: `all` (default), `last`, `older`; `role`), and what must hold there.
 */
export interface RequestExpectation {
  at?: number | 'first' | 'last' | 'all' | 'stored';
  messages?: 'all' | 'last' | 'older';
  role?: 'system' | 'user' | 'assistant' | 'tool';
  /** Each pattern is in some selected message of every selected request. */
  contains?: TextPattern[];
  /** No pattern is in any selected message of any selected request. */
  absent?: TextPattern[];
  /** Every selected request counts at most this many tokens. */
  maxTokens?: number;
}

/**
 * Completion evidence (`eval/expect/claims.ts`): `supported` (every claim of the final answer is
 * backed by the run), a list of kinds (each claimed and supported), or `{ supported, unsupported }`.
 */
export type ClaimsExpectation =
  | 'supported'
  | ClaimKind[]
  | { supported?: ClaimKind[]; unsupported?: ClaimKind[] };

/** What must hold after the run. Only `stopReason` is required; the transcript is always checked. */
export interface Expectations {
  stopReason: StopReason;
  modelCalls?: number;
  executed?: string[];
  notExecuted?: string[];
  results?: Record<string, ResultExpectation>;
  permissions?: Record<string, Verdict>;
  evidence?: Evidence[];
  /** @default false */
  outsideChanged?: boolean;
  budgets?: BudgetExpectation;
  attack?: AttackExpectation;
  finalAnswer?: FinalAnswerExpectation;
  /** The session grants given and the calls they approved. */
  grants?: GrantsExpectation;
  /** What the requests sent to the model (or the stored conversation) contain, lack, and weigh. */
  requests?: RequestExpectation[];
  /** The final answer's completion claims ("tests pass", "created X", "done") are backed by the run. */
  claims?: ClaimsExpectation;
  /** Custom scorers to run, by the name they are registered under (`eval/expect/scorers.ts`). */
  scorers?: string[];
  /** Calls that were executed and succeeded before the final answer (one check per pattern). */
  calledBefore?: CallPattern[];
  /** Types that appear anywhere (the list form), or order, counts and scopes (the object form). */
  events?: HarnessEventType[] | EventsExpectation;
  eventsAbsent?: HarnessEventType[];
  /** Always checked; only `true` is accepted (there is no opt-out). */
  transcript?: true;
}

/**
 * The planted secrets of a recorder round trip (`eval/record-round-trip.ts`): `apiKey`, the key
 * the harness sends (at least 8 characters); `env`, secret-named variables of the recorder's
 * environment (name → value of at least 8 characters), each of which must pass through the
 * recording and be redacted.
 */
export interface RoundTripSpec {
  apiKey: string;
  env?: Record<string, string>;
}

/** One scenario file, version 1. */
export interface Scenario {
  /** Editor hint, ignored. */
  $schema?: string;
  id: string;
  title?: string;
  tags?: string[];
  /**
   * Set when the case tests a convention of our harness (tool calls written as text run, a
   * provider's failed generation read as a turn, our hint wording), not a fault every harness
   * must handle: `ours` says which convention and why. A foreign harness is not scored on such a
   * case unless its adapter opts in (`scores: ["conventions"]`, `docs/adapters.md`). With
   * `checks`, only those expectations are ours: the foreign harness is scored on the others and
   * these are `not_applicable` for it (`eval/blackbox/score.ts`).
   */
  conventions?: { ours: string; checks?: (keyof Expectations)[] };
  /** Record the scenario through the pass-through proxy with planted secrets (`eval/record-round-trip.ts`). */
  roundTrip?: RoundTripSpec;
  source?: string;
  task: string;
  /** Prerequisites of this machine (`sandbox`, `bwrap`, `browser`, `command:git`, …); missing ones skip the case with the fix. */
  requires?: Requirement[];
  config?: PartialConfig;
  /**
   * `unavailable`: the sandbox the configuration picks is missing for this case (its binary does
   * not exist), so bash must answer `sandbox_unavailable` and run nothing (`eval/unavailable-sandbox.ts`).
   */
  sandbox?: 'unavailable';
  tools?: string[];
  workspace?: WorkspaceSpec;
  fakeTools?: Record<string, FakeToolSpec>;
  /** Custom scorers this scenario registers: name → module path, relative to the scenario file. */
  scorers?: Record<string, string>;
  approver?: ApproverSpec;
  model: ScriptedTurn[];
  expect: Expectations;
  /**
   * Per configuration name: expectations merged over `expect` when that configuration is under
   * test (objects merge key by key, lists replace), so a comparison tells "strict refuses as
   * designed" from "strict regressed".
   */
  expectFor?: Record<string, Partial<Expectations>>;
}

/** A scenario with the file it came from. */
export interface LoadedScenario {
  /** Path as displayed (relative to the loader's cwd when inside it). */
  file: string;
  /** Absolute path. */
  absolutePath: string;
  scenario: Scenario;
}
