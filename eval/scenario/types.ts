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

/** An approver rule: `match` is a command pattern for bash, a glob over the resolved path for file tools. */
export interface ApproverRule {
  /** Tool name, or `*` for any tool. */
  tool: string;
  /** Absent: every call of the tool. */
  match?: string;
  answer: 'approve' | 'deny';
}

/** Answers to `ask` in interactive mode: the last matching rule wins, else `default`. */
export interface ApproverSpec {
  default?: 'approve' | 'deny';
  rules?: ApproverRule[];
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
  finalAnswer?: { includes?: string[]; absent?: boolean };
  events?: HarnessEventType[];
  eventsAbsent?: HarnessEventType[];
  /** Always checked; only `true` is accepted (there is no opt-out). */
  transcript?: true;
}

/** One scenario file, version 1. */
export interface Scenario {
  /** Editor hint, ignored. */
  $schema?: string;
  id: string;
  title?: string;
  tags?: string[];
  source?: string;
  task: string;
  /** Prerequisites of this machine (`sandbox`, `bwrap`, `browser`, `command:git`, …); missing ones skip the case with the fix. */
  requires?: Requirement[];
  config?: PartialConfig;
  tools?: string[];
  workspace?: WorkspaceSpec;
  fakeTools?: Record<string, FakeToolSpec>;
  approver?: ApproverSpec;
  model: ScriptedTurn[];
  expect: Expectations;
}

/** A scenario with the file it came from. */
export interface LoadedScenario {
  /** Path as displayed (relative to the loader's cwd when inside it). */
  file: string;
  /** Absolute path. */
  absolutePath: string;
  scenario: Scenario;
}
