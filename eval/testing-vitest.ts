/**
 * vitest, first class: `describeScenarios(glob)` turns scenario files into one vitest test
 * each, and the matchers `toPassScenario` and `toReplayClean` (registered with `expect.extend`
 * when `harness-bench/testing` is imported) fail with every failed check: its name, what was
 * expected, what was observed, and the reason. Re-exported by `eval/testing.ts`.
 *
 * ```ts
 * import { describeScenarios } from 'harness-bench/testing';
 * describeScenarios('scenarios/**\/*.yaml', { config: 'configs/strict.json' });
 * ```
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'tinyglobby';
import { describe, expect, inject, it } from 'vitest';
import type { CaseResult } from './results.ts';
import { parseScenarioText } from './scenario/parse.ts';
import { inShard } from './shard.ts';

/** What the matchers accept: a run from `runScenario` / `replayCassette`, or a bare case result. */
type Received = { result: CaseResult } | CaseResult;

const show = (value: unknown): string => {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
};

function resultOf(received: unknown): CaseResult | undefined {
  if (typeof received !== 'object' || received === null) return undefined;
  const candidate = 'result' in received ? (received as { result: unknown }).result : received;
  return typeof candidate === 'object' && candidate !== null && 'checks' in candidate && 'status' in candidate
    ? (candidate as CaseResult)
    : undefined;
}

/**
 * Every failed check of a case, one block each: `✗ name`, then `expected`, `observed` and
 * `reason` lines. A case that errored or was skipped says so first.
 */
export function describeFailedChecks(result: CaseResult): string[] {
  const lines: string[] = [];
  if (result.status === 'error') lines.push(`errored: ${result.error?.message ?? 'unknown error'}`);
  if (result.status === 'skipped')
    lines.push(
      `skipped: ${result.skip?.reason ?? 'a prerequisite is missing'}${result.skip?.fix ? `; fix: ${result.skip.fix}` : ''}`,
    );
  for (const check of result.checks.filter((c) => !c.pass)) {
    const reason = (check as { reason?: unknown }).reason;
    lines.push(
      `✗ ${check.name}`,
      `    expected: ${show(check.expected)}`,
      `    observed: ${show(check.observed)}`,
      ...(typeof reason === 'string' ? [`    reason:   ${reason}`] : []),
    );
  }
  return lines;
}

const NOT_A_RUN =
  'expects what runScenario() or replayCassette() of harness-bench/testing resolve with (or its .result)';

/** `expect(run).toPassScenario()`: the case passed, every check held. */
function toPassScenario(this: { isNot: boolean }, received: Received) {
  const result = resultOf(received);
  if (!result) return { pass: false, message: () => `toPassScenario ${NOT_A_RUN}; got ${show(received)}` };
  const failed = result.checks.filter((c) => !c.pass).length;
  const pass = result.status === 'pass';
  const where = `${result.id} (under ${result.config})`;
  return {
    pass,
    message: () =>
      pass
        ? `expected ${where} not to pass, but all ${result.checks.length} checks passed`
        : [
            `expected ${where} to pass; it is ${result.status}${failed > 0 ? `, ${failed} of ${result.checks.length} checks failed` : ''}:`,
            ...describeFailedChecks(result).map((l) => `  ${l}`),
          ].join('\n'),
  };
}

/**
 * `expect(replay).toReplayClean()`: the replay passed and nothing diverged: no request differs
 * from the recording, no step of the ledger differs, no exchange was left unused.
 */
function toReplayClean(this: { isNot: boolean }, received: Received) {
  const result = resultOf(received);
  if (!result) return { pass: false, message: () => `toReplayClean ${NOT_A_RUN}; got ${show(received)}` };
  const replay = received as {
    firstDivergence?: string;
    differences?: unknown[];
    comparison?: { headline?: string; ledgerDifferences?: unknown[]; unusedExchanges?: number };
  };
  const problems: string[] = describeFailedChecks(result);
  const headline = replay.firstDivergence ?? replay.comparison?.headline;
  if (headline) problems.push(`first divergence: ${headline}`);
  for (const d of result.divergences)
    problems.push(
      `request ${d.exchange} differs at ${d.path}: recorded ${show(d.recorded)}, sent ${show(d.replayed)}`,
    );
  const unused = replay.comparison?.unusedExchanges ?? result.findings?.unusedExchanges ?? 0;
  if (unused > 0 && !result.checks.some((c) => c.name === 'replay.unusedExchanges' && !c.pass))
    problems.push(`${unused} recorded exchanges were not used`);
  const pass = result.status === 'pass' && problems.length === 0;
  return {
    pass,
    message: () =>
      pass
        ? `expected ${result.id} (under ${result.config}) not to replay clean, but it did`
        : [
            `expected ${result.id} (under ${result.config}) to replay clean; it is ${result.status}:`,
            ...problems.map((l) => `  ${l}`),
          ].join('\n'),
  };
}

/** The matchers, for `expect.extend(matchers)` where `harness-bench/testing` is not imported. */
export const matchers = { toPassScenario, toReplayClean };

expect.extend(matchers);

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: the declaration must match vitest's own
  interface Matchers<T = any> {
    /** The scenario run passed; otherwise fails listing every failed check (expected, observed, reason). */
    toPassScenario(): T;
    /** The replay passed with no divergence and no unused exchange; otherwise lists every one. */
    toReplayClean(): T;
  }
  interface ProvidedContext {
    /** The `vitest --shard` of this run, provided by `ScenarioSequencer` (`harness-bench/vitest`). */
    'harness-bench:shard'?: { index: number; count: number };
  }
}

/** Options of {@link describeScenarios}. Paths are relative to `cwd`. */
export interface DescribeScenariosOptions {
  /** Configuration file. @default configs/default.json of the package */
  config?: string;
  /** @default process.cwd() */
  cwd?: string;
  /** The suite's title. @default `scenarios <patterns>` */
  title?: string;
  /** The harness under test: `ours`, an adapter file or a shipped adapter's name (see `runScenario`). @default ours */
  harness?: string;
}

/** The scenario files of the patterns, as `loadScenarios` finds them (folders, globs, `schema/` left out). */
function scenarioFiles(patterns: readonly string[], cwd: string): string[] {
  const files = new Set<string>();
  for (const pattern of patterns) {
    const absolute = path.resolve(cwd, pattern);
    const found = globSync(
      /[*?{[]/.test(pattern) ? [pattern] : [pattern, `${pattern.replace(/\/$/, '')}/**/*.{json,yaml,yml}`],
      {
        cwd,
        absolute: true,
        // A pattern that names node_modules (the package's own scenarios,
        // `node_modules/harness-bench/scenarios/…`) looks there; any other never descends into it.
        ignore: [...(pattern.includes('node_modules') ? [] : ['**/node_modules/**']), '**/schema/**'],
      },
    );
    for (const file of found) if (/\.(json|ya?ml)$/i.test(file)) files.add(path.resolve(file));
    if (found.length === 0 && /\.(json|ya?ml)$/i.test(absolute)) files.add(absolute);
  }
  return [...files].sort();
}

/** The scenario id of a file (for the test name), or `undefined` when it does not parse. */
function peekId(file: string): string | undefined {
  try {
    const parsed = parseScenarioText(readFileSync(file, 'utf8'), file);
    const id = parsed.ok ? (parsed.value as { id?: unknown } | null)?.id : undefined;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Declares one vitest suite with one test per scenario file matched by `patterns` (files,
 * folders or globs), named by the scenario's id. Each test runs the scenario (the model frozen,
 * the harness live) and asserts `toPassScenario`; a scenario whose prerequisite is missing here
 * (`requires`) is reported as skipped with the fix. A pattern that matches nothing is one failing
 * test: a suite that runs nothing must not pass. Under `vitest --shard` with `ScenarioSequencer`
 * (`harness-bench/vitest`), each shard runs its share of the scenarios, split as `harness-bench
 * run --shard` splits cases (by configuration name and id).
 *
 * The `runScenario` it calls is injected by `eval/testing.ts` (which re-exports this).
 */
export function describeScenariosWith(
  runScenario: (
    file: string,
    options: { config?: string; harness?: string; cwd: string },
  ) => Promise<{ result: CaseResult }>,
  patterns: string | readonly string[],
  options: DescribeScenariosOptions = {},
): void {
  const list = typeof patterns === 'string' ? [patterns] : [...patterns];
  const cwd = options.cwd ?? process.cwd();
  const files = scenarioFiles(list, cwd);
  const configName = options.config ? path.basename(options.config).replace(/\.json$/i, '') : 'default';
  const cases = files.map((file) => ({ file, id: peekId(file) ?? path.relative(cwd, file) }));
  const shard = inject('harness-bench:shard');
  const mine = shard ? inShard(cases, shard, (c) => [configName, c.id]) : cases;
  describe(options.title ?? `scenarios ${list.join(', ')}`, () => {
    if (files.length === 0)
      it('matches scenario files', () => {
        throw new Error(`no scenario file (.json, .yaml, .yml) matches ${list.join(', ')} in ${cwd}`);
      });
    for (const { file, id } of mine)
      it(id, async (context) => {
        const run = await runScenario(file, {
          ...(options.config ? { config: options.config } : {}),
          ...(options.harness ? { harness: options.harness } : {}),
          cwd,
        });
        if (run.result.status === 'skipped')
          context.skip(
            `${run.result.skip?.reason ?? 'prerequisite missing'}${run.result.skip?.fix ? `; fix: ${run.result.skip.fix}` : ''}`,
          );
        expect(run).toPassScenario();
      });
  });
}
