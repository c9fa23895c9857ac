/**
 * What every report shows of a results file, computed once: the summary per configuration
 * (counts, pass rate, attack success and utility, tokens and cost), the regressions of each
 * configuration against the first one (passed there, fails here), and the failed checks of a case.
 * Pure functions of `results.json`; the per-configuration metrics block (`summary.metrics`) is
 * used when the run wrote one.
 */
import type { CaseResult, ResultsFile, StatusCounts } from '../eval/results.ts';

/** `count` of `of` and the rate (`null` when `of` is 0). */
export interface Share {
  count: number;
  of: number;
  rate: number | null;
}

/** One configuration's row. Tokens and USD summed over its cases. */
export interface ConfigSummary {
  name: string;
  counts: StatusCounts;
  /** Passed of the cases that ran (skipped ones left out). */
  passRate: Share;
  /**
   * Attack success (after AgentDojo, Debenedetti et al. 2024): injection cases whose goal was
   * realised, of those with an attack that did not error; `null` when the suite has none.
   */
  attackSuccess: Share | null;
  /** Injection cases tagged `no-attack` / `attack` whose checks other than `attack` all held. */
  utilityWithoutAttack: Share | null;
  utilityUnderAttack: Share | null;
  totalTokens: number;
  costUsd: number;
  toolCalls: number;
}

const share = (count: number, of: number): Share => ({
  count,
  of,
  rate: of === 0 ? null : Number((count / of).toFixed(6)),
});

/** A share as `83.3% (5/6)`, or `-` when there is nothing to count. */
export function shareText(s: Share | null): string {
  if (!s || s.rate === null) return '-';
  return `${(s.rate * 100).toFixed(1)}% (${s.count}/${s.of})`;
}

/** The summary of each configuration, in the order of `results.configs`. */
export function configSummaries(results: ResultsFile): ConfigSummary[] {
  const names = results.configs.map((c) => c.name);
  for (const c of results.cases) if (!names.includes(c.config)) names.push(c.config);
  return names.map((name) => {
    const cases = results.cases.filter((c) => c.config === name);
    const ran = cases.filter((c) => c.status !== 'skipped');
    const counts = results.summary.byConfig[name] ?? {
      total: cases.length,
      passed: cases.filter((c) => c.status === 'pass').length,
      failed: cases.filter((c) => c.status === 'fail').length,
      errored: cases.filter((c) => c.status === 'error').length,
      skipped: cases.length - ran.length,
    };
    const attacked = ran.filter((c) => c.attack && c.status !== 'error');
    const useful = (c: CaseResult) =>
      c.status !== 'error' &&
      c.checks.every((k) => k.pass || k.name === 'attack' || k.status === 'not_applicable');
    const injection = ran.filter((c) => c.tags.includes('injection'));
    const without = injection.filter((c) => c.tags.includes('no-attack'));
    const under = injection.filter((c) => c.tags.includes('attack'));
    return {
      name,
      counts,
      passRate: share(counts.passed, ran.length),
      attackSuccess:
        attacked.length > 0
          ? share(attacked.filter((c) => c.attack?.succeeded).length, attacked.length)
          : null,
      utilityWithoutAttack: without.length > 0 ? share(without.filter(useful).length, without.length) : null,
      utilityUnderAttack: under.length > 0 ? share(under.filter(useful).length, under.length) : null,
      totalTokens: cases.reduce((n, c) => n + c.usage.totalTokens, 0),
      costUsd: Number(cases.reduce((n, c) => n + c.usage.costUsd, 0).toFixed(6)),
      toolCalls: cases.reduce((n, c) => n + c.usage.toolCalls, 0),
    };
  });
}

/** A case that passed under the baseline (the first configuration) and fails or errors under `config`. */
export interface Regression {
  id: string;
  baseline: string;
  config: string;
  result: CaseResult;
}

/**
 * Every regression of each other configuration against the baseline (`comparisons.reference`
 * when the run compared, else the first configuration), in case order.
 */
export function regressions(results: ResultsFile): Regression[] {
  const baseline =
    (results as { comparisons?: { reference?: string } }).comparisons?.reference ?? results.configs[0]?.name;
  if (!baseline || results.configs.length < 2) return [];
  const passed = new Set(
    results.cases.filter((c) => c.config === baseline && c.status === 'pass').map((c) => c.id),
  );
  return results.cases
    .filter((c) => c.config !== baseline && (c.status === 'fail' || c.status === 'error') && passed.has(c.id))
    .map((c) => ({ id: c.id, baseline, config: c.config, result: c }));
}

/** Each failed check of a case as one line (`name: reason`; `name: expected X, observed Y` for a file without reasons), or its error. */
export function failedCheckLines(c: CaseResult): string[] {
  if (c.status === 'error') return [`error: ${c.error?.message ?? 'unknown error'}`];
  const show = (v: unknown) => {
    const text = typeof v === 'string' ? v : JSON.stringify(v);
    return text === undefined ? 'nothing' : text.length > 200 ? `${text.slice(0, 197)}...` : text;
  };
  const lines = c.checks
    .filter((k) => !k.pass && k.status !== 'not_applicable')
    .map((k) =>
      (k as { reason?: string }).reason
        ? `${k.name}: ${(k as { reason: string }).reason.replace(/\s*\n\s*/g, ' ')}`
        : `${k.name}: expected ${show(k.expected)}, observed ${show(k.observed)}`,
    );
  return lines.length > 0 ? lines : c.firstFailure ? [c.firstFailure] : [];
}

/**
 * The one command that reproduces a case under its configuration, and against the harness the
 * run benched (`--harness FILE` for an adapter run: without it the command would run ours).
 */
export function reproduceCommand(results: ResultsFile, c: Pick<CaseResult, 'id' | 'config'>): string {
  const file = results.configs.find((x) => x.name === c.config)?.file;
  const quote = (s: string) => (/^[\w./@:=+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const h = results.configs.find((x) => x.name === c.config)?.harness ?? results.harness;
  const harness = h && h.kind !== 'ours' ? ` --harness ${quote(h.file ?? h.name)}` : '';
  return `npx harness-bench run --filter ${quote(c.id)}${file ? ` -c ${quote(file)}` : ''}${harness} --verbose`;
}
