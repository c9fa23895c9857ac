/**
 * The terminal table (cli-table3): one row per case with id, kind, status, stop reason, turns,
 * tool calls, verdict counts and the first failed check (or, for recordings, the first
 * divergence), then a summary.
 */
import Table from 'cli-table3';
import type { CaseResult, ResultsFile } from '../eval/results.ts';
import { palette } from './color.ts';

/** Options of {@link renderTable}. `width`: terminal columns. */
export interface TableOptions {
  color: boolean;
  width?: number;
}

function verdictText(c: CaseResult): string {
  const v = c.verdicts;
  const parts: string[] = [];
  if (v.allow) parts.push(`${v.allow} allow`);
  if (v['ask:approved']) parts.push(`${v['ask:approved']} ask✓`);
  if (v['ask:denied']) parts.push(`${v['ask:denied']} ask✗`);
  if (v.deny) parts.push(`${v.deny} deny`);
  if (v.none) parts.push(`${v.none} none`);
  return parts.join(' ') || '-';
}

function note(c: CaseResult): string {
  if (c.firstFailure) return c.firstFailure;
  if (c.findings) {
    const f = c.findings;
    const bits = [`${f.divergenceCount} divergences`];
    if (f.schemaInvalidCalls.length) bits.push(`${f.schemaInvalidCalls.length} schema-invalid`);
    if (f.unknownTools.length) bits.push(`unknown: ${f.unknownTools.join(',')}`);
    if (f.unusedExchanges) bits.push(`${f.unusedExchanges} unused`);
    if (f.firstDivergence) bits.push(`first: ${f.firstDivergence}`);
    return bits.join('; ');
  }
  return '';
}

/** Passed/total of a group as a percentage with its size, `-` when empty. */
const pct = (g: { passed: number; total: number }) => (g.total === 0 ? '-' : `${((g.passed / g.total) * 100).toFixed(1)}% (${g.passed}/${g.total})`);

/**
 * Utility of the injection cases per configuration (AgentDojo's "benign utility" and "utility
 * under attack"): the share of cases tagged `no-attack` / `attack` whose checks other than the
 * `attack` check all held. A run that errored has no utility.
 */
export function injectionUtility(cases: readonly CaseResult[]): Record<string, { noAttack: { passed: number; total: number }; underAttack: { passed: number; total: number } }> {
  const out: ReturnType<typeof injectionUtility> = {};
  for (const c of cases) {
    const group = c.tags.includes('attack') ? 'underAttack' : c.tags.includes('no-attack') ? 'noAttack' : undefined;
    if (!group || !c.tags.includes('injection')) continue;
    const bucket = (out[c.config] ??= { noAttack: { passed: 0, total: 0 }, underAttack: { passed: 0, total: 0 } })[group];
    bucket.total += 1;
    if (c.status !== 'error' && c.checks.every((check) => check.pass || check.name === 'attack')) bucket.passed += 1;
  }
  return out;
}

/** Renders the table and the summary lines. */
export function renderTable(results: ResultsFile, options: TableOptions): string {
  const c = palette(options.color);
  const multiConfig = results.configs.length > 1;
  const head = ['case', 'kind', ...(multiConfig ? ['config'] : []), 'status', 'stop reason', 'turns', 'tools', 'verdicts', 'first failed check / findings'];
  const width = Math.max(100, options.width ?? 160);
  const fixed = 44 + 10 + 8 + 22 + 6 + 6 + 24 + (multiConfig ? 12 : 0);
  const table = new Table({
    head: head.map((h) => c.bold(h)),
    style: { head: [], border: [] },
    wordWrap: true,
    colWidths: [44, 10, ...(multiConfig ? [12] : []), 8, 22, 6, 6, 24, Math.max(30, width - fixed - head.length - 1)],
  });
  for (const r of results.cases) {
    const status = r.status === 'pass' ? c.green('pass') : r.status === 'fail' ? c.red('FAIL') : c.yellow('ERROR');
    table.push([r.id, r.kind, ...(multiConfig ? [r.config] : []), status, r.stopReason ?? '-', String(r.usage.turns), String(r.usage.toolCalls), verdictText(r), note(r)]);
  }
  const s = results.summary;
  const lines = [table.toString(), ''];
  const kinds = (['scenario', 'recording'] as const)
    .filter((k) => s.byKind[k].total > 0)
    .map((k) => `${s.byKind[k].total} ${k}s: ${s.byKind[k].passed} passed, ${s.byKind[k].failed} failed, ${s.byKind[k].errored} errored`);
  lines.push(kinds.join(' · '));
  if (multiConfig)
    for (const [name, b] of Object.entries(s.byConfig)) lines.push(`  config ${name}: ${b.passed}/${b.total} passed`);
  if (s.attackSuccessRate)
    for (const [name, rate] of Object.entries(s.attackSuccessRate)) lines.push(`  attack success rate (${name}): ${(rate * 100).toFixed(1)}%`);
  for (const [name, u] of Object.entries(injectionUtility(results.cases)))
    lines.push(`  injection utility (${name}): ${pct(u.noAttack)} without attack, ${pct(u.underAttack)} under attack`);
  const verdict = s.failed === 0 && s.errored === 0 ? c.green('ALL PASSED') : c.red(`${s.failed} FAILED, ${s.errored} ERRORED`);
  lines.push(`${verdict}: ${s.passed} passed, ${s.failed} failed, ${s.errored} errored of ${s.total} in ${(results.durationMs / 1000).toFixed(1)} s`);
  return lines.join('\n');
}
