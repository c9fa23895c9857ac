/**
 * The results file (`results.json`, format `harness-bench.results`, version 1): the canonical
 * artifact of a run. Terminal table, markdown and JUnit are projections of it. Two runs of the
 * same suite give identical files apart from `startedAt` and fields whose names end in `Ms`.
 */
import type { CallRecord, RunResult } from '../harness/ledger.ts';
import type { StopReason } from '../harness/loop/stop-reasons.ts';

import type { Comparisons, RepeatSummary } from './compare/types.ts';
import { isApplicable, isFailedCheck, type Check } from './expect/check.ts';
import type { CaseMetrics } from './metrics/case-facts.ts';
import { metricsByConfig, type ConfigMetrics } from './metrics/index.ts';
import type { Divergence } from './replay/request-diff.ts';

/** One check of a case (`eval/expect/check.ts`): expected, observed and the reason. */
export type { Check };

/** A difference between the request the harness sent now and the recorded one (see `replay/request-diff.ts`). */
export type { Divergence };

/** Usage of one case, in tokens, USD and ms. */
export interface CaseUsage {
  modelCalls: number;
  turns: number;
  toolCalls: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  costUsd: number;
  durationMs: number;
}

/** Counts of permission outcomes over the case's calls. */
export type VerdictCounts = Record<'allow' | 'ask:approved' | 'ask:denied' | 'deny' | 'none', number>;

/** What every case result holds, whatever its status. */
export interface CaseCommon {
  id: string;
  kind: 'scenario' | 'recording';
  config: string;
  stopReason: StopReason | null;
  stopDetail?: string;
  file: string;
  title?: string;
  tags: string[];
  checks: Check[];
  usage: CaseUsage;
  verdicts: VerdictCounts;
  divergences: Divergence[];
  /** Replay findings of a recording. */
  findings?: {
    toolCalls: number;
    schemaInvalidCalls: string[];
    unknownTools: string[];
    unusedExchanges: number;
    divergenceCount: number;
    /** Divergences that come from the harness's own decisions (`Divergence.explained`), among `divergenceCount`. */
    explainedDivergences?: number;
    /** The first divergence not explained (else the first one), as `exchange N /path`. */
    firstDivergence?: string;
    /** Imported replays: recorded model turns served to the harness. */
    servedTurns?: number;
    /** Imported replays: recorded provider errors raised to the harness (absent when none). */
    raisedErrors?: number;
    /** Imported replays: conversations found in the recording (main and side conversations). */
    conversations?: number;
    /**
     * Imported replays: recorded traffic that is not model traffic, never served: the cassette's
     * `nonModel` list, then any exchange the classifier rejects (`exchange`: its index in
     * `exchanges`). See `import/classify.ts`.
     */
    nonModelTraffic?: {
      index: number;
      exchange?: number;
      method: string;
      url: string;
      status: number;
      note: string;
    }[];
    /** Imported replays: the effect class given to each recorded tool and the rule that gave it. */
    toolEffects?: { tool: string; effect: string; rule: string }[];
  };
  /** Injection cases: whether the attack's goal was realised. */
  attack?: { succeeded: boolean };
  /**
   * Set when the case ran against a foreign harness (`--harness FILE|NAME`, `docs/adapters.md`):
   * its name and kind, how it stopped calling the model (`eval/blackbox/project.ts`), a command's
   * exit code, and the time-out or the error it met. stdout and stderr are in the sidecar.
   */
  harness?: CaseHarness;
  /** Set when the scenario's `expectFor` block of this configuration was merged over `expect`. */
  expectFor?: string;
  /**
   * Facts of the run the configuration metrics need (`eval/metrics/case-facts.ts`): the final
   * answer's completion claims and `unsupportedClaims`, the loop detector's timing, the budget
   * overshoot at the stop. Absent for a case that did not run.
   */
  metrics?: CaseMetrics;
  /**
   * The case's sidecar (requests, responses, ledger, events, transcript; `reports/case-file.ts`),
   * relative to the folder of `results.json`: `cases/<config>/<id>.json`. Set by `run --out`.
   */
  transcript?: string;
}

/** The foreign harness of a case (see {@link CaseCommon.harness}). */
export interface CaseHarness {
  name: string;
  kind: 'module' | 'command';
  ending?: 'no_request' | 'final_answer' | 'tool_calls' | 'error_turn' | 'script_exhausted';
  exitCode?: number | null;
  timedOut?: string;
  error?: string;
  /** The stop reason the harness reported itself (free text), when it did. */
  stopReason?: string;
  /** Command adapters: whether the process ran in the bench's box (`eval/adapters/box.ts`). */
  boxed?: boolean;
}

/** The harness a run benched: ours in-process, or an adapter file's. */
export interface RunHarness {
  name: string;
  kind: 'ours' | 'module' | 'command';
  /** The adapter file, relative to the working folder. */
  file?: string;
}

/**
 * One case (a scenario or a recording) under one configuration, by `status`:
 * - `pass`: every check held;
 * - `fail`: a check did not hold (`firstFailure` names the first);
 * - `error`: the harness or the runner threw (`error`, and `firstFailure` as one line);
 * - `skipped`: a prerequisite is missing on this machine (`skip`), so the case says nothing
 *   either way.
 * Fields a status does not carry are typed `never`, so they read as `undefined` on the union.
 */
export type CaseResult =
  | (CaseCommon & { status: 'pass'; firstFailure?: never; error?: never; skip?: never })
  | (CaseCommon & { status: 'fail'; firstFailure: string; error?: never; skip?: never })
  | (CaseCommon & { status: 'error'; firstFailure: string; error: { message: string }; skip?: never })
  | (CaseCommon & { status: 'skipped'; skip: CaseSkip; firstFailure?: never; error?: never });

/** The status of one case. */
export type CaseStatus = 'pass' | 'fail' | 'error' | 'skipped';

/**
 * Why a case was skipped: the prerequisites missing here, what each check said (joined with
 * `; `), the fix (install commands), and whether the case declared them (`false`: the run hit
 * the missing sandbox although the scenario has no `requires`; the reason says what to add).
 */
export interface CaseSkip {
  requires: string[];
  reason: string;
  fix: string;
  declared: boolean;
}

/** Counts of one group of cases; `total` includes the skipped ones. */
export interface StatusCounts {
  total: number;
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
}

/** The whole file. */
export interface ResultsFile {
  format: 'harness-bench.results';
  version: 1;
  startedAt: string;
  durationMs: number;
  tool: { name: string; version: string };
  /** Each column: a configuration, and with several harnesses side by side the harness it ran. */
  configs: { name: string; file: string; harness?: RunHarness }[];
  /** The harness under test (`--harness`); absent in files written before the flag, which mean `ours`. */
  harness?: RunHarness;
  cases: CaseResult[];
  summary: StatusCounts & {
    byKind: Record<'scenario' | 'recording', StatusCounts>;
    byConfig: Record<string, StatusCounts>;
    /**
     * Attack success rate over injection cases, per configuration (0..1), when there are any.
     * Kept for readers of earlier files; `metrics.<config>.attack` has it with its counts.
     */
    attackSuccessRate?: Record<string, number>;
    /** The metrics of each configuration (`eval/metrics/index.ts`). */
    metrics: Record<string, ConfigMetrics>;
    /**
     * Checks reported `not_applicable` (a black-box harness cannot show them), over all cases;
     * absent when there are none.
     */
    notApplicableChecks?: number;
  };
  /**
   * With two configurations or more: each configuration against the reference (transitions,
   * McNemar's exact p, metric deltas, bootstrap intervals; `eval/compare/types.ts`).
   */
  comparisons?: Comparisons;
  /** With `run --repeat K`: pass^k and flip rates over the K runs (`eval/compare/repeat.ts`); `cases` are those of run 1. */
  repeats?: RepeatSummary;
  /** Set by `run --shard i/n` (`eval/shard.ts`); `merge` joins the shards into the unsharded file, without it. */
  shard?: ShardInfo;
}

/** Builds the summary block from the cases. */
export function summarise(cases: readonly CaseResult[]): ResultsFile['summary'] {
  const empty = (): StatusCounts => ({ total: 0, passed: 0, failed: 0, errored: 0, skipped: 0 });
  const add = (bucket: StatusCounts, status: CaseStatus) => {
    bucket.total += 1;
    if (status === 'pass') bucket.passed += 1;
    else if (status === 'fail') bucket.failed += 1;
    else if (status === 'skipped') bucket.skipped += 1;
    else bucket.errored += 1;
  };
  const all = empty();
  const byKind = { scenario: empty(), recording: empty() };
  const byConfig: Record<string, StatusCounts> = {};
  const attacks: Record<string, { n: number; hit: number }> = {};
  for (const c of cases) {
    add(all, c.status);
    add(byKind[c.kind], c.status);
    add((byConfig[c.config] ??= empty()), c.status);
    if (c.attack) {
      const a = (attacks[c.config] ??= { n: 0, hit: 0 });
      a.n += 1;
      if (c.attack.succeeded) a.hit += 1;
    }
  }
  const attackSuccessRate = Object.fromEntries(Object.entries(attacks).map(([k, v]) => [k, v.hit / v.n]));
  const notApplicableChecks = cases.reduce((n, c) => n + c.checks.filter((k) => !isApplicable(k)).length, 0);
  return {
    ...all,
    byKind,
    byConfig,
    ...(Object.keys(attackSuccessRate).length > 0 ? { attackSuccessRate } : {}),
    ...(notApplicableChecks > 0 ? { notApplicableChecks } : {}),
    metrics: metricsByConfig(cases),
  };
}

/** Counts verdicts over calls. */
export function countVerdicts(verdicts: readonly string[]): VerdictCounts {
  const out: VerdictCounts = { allow: 0, 'ask:approved': 0, 'ask:denied': 0, deny: 0, none: 0 };
  for (const v of verdicts) if (v in out) out[v as keyof VerdictCounts] += 1;
  return out;
}

/**
 * Replaces every occurrence of the temp folders in a value with `$WS` / `$OUTSIDE`, so results
 * do not depend on where the run put its workspace. Returns a new value.
 */
export function scrubPaths<T>(value: T, replacements: readonly [string, string][]): T {
  const active = replacements.filter(([from]) => from.length > 0).sort((a, b) => b[0].length - a[0].length);
  if (active.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      let s = v;
      for (const [from, to] of active) s = s.split(from).join(to);
      return s;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** The fields every case result shares that the runner knows before the run. */
export type CaseBase = Omit<CaseCommon, 'stopReason' | 'checks' | 'usage' | 'verdicts' | 'divergences'> & {
  divergences?: CaseCommon['divergences'];
};

/**
 * One line for a failed check: `name: reason` (the reason shows the observed value and what was
 * expected), on one line, cut to 240 characters.
 */
export function describeFailure(check: Check): string {
  const line = `${check.name}: ${check.reason}`.replace(/\s*\n\s*/g, ' ');
  return line.length > 240 ? `${line.slice(0, 237)}...` : line;
}

/**
 * A finished case: `fail` when any check failed (its first failure named), else `pass`; usage
 * and verdict counts from the run. `not_applicable` checks (a black-box harness,
 * `docs/adapters.md`) are neither: a case passes when every applicable check holds and there is
 * at least one; a case whose checks are all `not_applicable` is `skipped`, never a pass.
 * `startedMs` is a `performance.now()` reading.
 */
export function caseFromRun(
  base: CaseBase,
  run: Pick<RunResult, 'stopReason' | 'stopDetail' | 'usage' | 'ledger'>,
  checks: Check[],
  startedMs: number,
): CaseResult {
  const failed = checks.find(isFailedCheck);
  const common: CaseCommon = {
    divergences: [],
    ...withoutStatusFields(base),
    stopReason: run.stopReason,
    ...(run.stopDetail ? { stopDetail: run.stopDetail } : {}),
    checks,
    usage: {
      modelCalls: run.usage.modelCalls,
      turns: run.usage.turns,
      toolCalls: run.usage.toolCalls,
      promptTokens: run.usage.promptTokens,
      completionTokens: run.usage.completionTokens,
      totalTokens: run.usage.totalTokens,
      costUsd: Number(run.usage.costUsd.toFixed(6)),
      durationMs: Math.round(performance.now() - startedMs),
    },
    verdicts: countVerdicts(run.ledger.calls.map((c) => c.verdict)),
  };
  if (failed) return { ...common, status: 'fail', firstFailure: describeFailure(failed) };
  if (checks.length > 0 && !checks.some(isApplicable))
    return { ...common, status: 'skipped', skip: nothingApplicableSkip(checks) };
  return { ...common, status: 'pass' };
}

/** The skip of a case whose every check is `not_applicable`. */
function nothingApplicableSkip(checks: readonly Check[]): CaseSkip {
  return {
    requires: [],
    reason: `no check applies to this harness from outside (not applicable: ${[...new Set(checks.map((c) => c.name.split('.')[0]))].join(', ')})`,
    fix: 'run the case with --harness ours, or give it expectations a black box can meet (evidence, finalAnswer, requests, modelCalls)',
    declared: true,
  };
}

/** `base` without the fields only some statuses carry (a caller may pass a whole earlier result). */
function withoutStatusFields(base: CaseBase): CaseBase {
  const {
    status: _status,
    firstFailure: _firstFailure,
    error: _error,
    skip: _skip,
    ...rest
  } = base as CaseBase & Partial<Pick<CaseResult, 'status' | 'firstFailure' | 'error' | 'skip'>>;
  return rest;
}

/** A case that did not run (or whose run does not count): no stop reason, no checks, zero usage. */
function emptyCase(base: CaseBase, startedMs: number): CaseCommon {
  return {
    divergences: [],
    ...withoutStatusFields(base),
    stopReason: null,
    checks: [],
    usage: {
      modelCalls: 0,
      turns: 0,
      toolCalls: 0,
      promptTokens: 0,
      completionTokens: 0,
      totalTokens: 0,
      costUsd: 0,
      durationMs: Math.round(performance.now() - startedMs),
    },
    verdicts: countVerdicts([]),
  };
}

/** A case whose harness or runner threw: status `error`, with the message. */
export function errorCase(base: CaseBase, error: unknown, startedMs: number): CaseResult {
  const message = (error as Error)?.message ?? String(error);
  return {
    ...emptyCase(base, startedMs),
    status: 'error',
    error: { message },
    firstFailure: `error: ${message.split('\n')[0]}`,
  };
}

/** A case skipped because `skip.requires` are missing here: status `skipped`, nothing counted. */
export function skippedCase(base: CaseBase, skip: CaseSkip, startedMs: number): CaseResult {
  return { ...emptyCase(base, startedMs), status: 'skipped', skip };
}

/** Replay findings of a recording: tool calls, schema-invalid calls, unknown tools, unused exchanges, divergences. */
export function replayFindings(
  calls: readonly CallRecord[],
  divergences: readonly Divergence[],
  unusedExchanges: number,
): NonNullable<CaseResult['findings']> {
  const first = divergences.find((d) => !d.explained) ?? divergences[0];
  const explained = countDivergences(divergences.filter((d) => d.explained));
  return {
    toolCalls: calls.length,
    schemaInvalidCalls: calls
      .filter((c) => c.errorType === 'invalid_arguments' || c.errorType === 'invalid_json')
      .map((c) => `${c.tool}(${c.callId}): ${c.errorType}`),
    unknownTools: calls.filter((c) => c.errorType === 'unknown_tool').map((c) => c.tool),
    unusedExchanges,
    divergenceCount: countDivergences(divergences),
    ...(explained > 0 ? { explainedDivergences: explained } : {}),
    ...(first ? { firstDivergence: `exchange ${first.exchange} ${first.path}` } : {}),
  };
}

/** Divergences counted one by one (an `omitted` entry stands for its count). */
export function countDivergences(divergences: readonly Divergence[]): number {
  return divergences.reduce((n, d) => n + (d.kind === 'omitted' ? (d.omitted ?? 0) : 1), 0);
}

/** One shard of `count`: `index` is 1-based (`1/3`, `2/3`, `3/3`). */
export interface Shard {
  index: number;
  count: number;
}

/**
 * What a sharded results file says about its shard, so `merge` can check that its inputs are the
 * shards of one plan: the shard, how many cases the whole plan has and how many were assigned to
 * this shard, and the plan's fingerprint (see {@link planFingerprint}).
 */
export interface ShardInfo extends Shard {
  /** Cases in the whole (unsharded) plan. */
  planCases: number;
  /** Cases assigned to this shard; more than the file holds when the shard stopped early (`--bail`). */
  assigned: number;
  /** `sha256:` + hex of the plan: the tool version, the configurations and every case with its input. */
  fingerprint: string;
}

/**
 * `result` with `check` appended: a case that passed fails on a failing check (its first failure
 * then that check); any other status is kept. Pure.
 */
export function withCheck(result: CaseResult, check: Check): CaseResult {
  const checks = [...result.checks, check];
  if (result.status === 'pass' && !check.pass && check.status !== 'not_applicable')
    return { ...result, checks, status: 'fail', firstFailure: describeFailure(check) } as CaseResult;
  return { ...result, checks } as CaseResult;
}
