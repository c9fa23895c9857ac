/**
 * The black-box scorer's own error, measured (`docs/calibration.md`): every bundled scenario run
 * twice under the default configuration, once by our harness in-process (scored white-box, on
 * its ledger and events) and once by the same harness served through the model endpoint
 * (`adapters/ours-served.json`, scored black-box on what it sent and left behind). On the cases
 * both score (neither skipped), the statuses must agree; a disagreement is the scorer's error
 * unless {@link KNOWN_DISAGREEMENTS} explains it. CI holds the agreement at
 * {@link MIN_AGREEMENT} or more (`calibration.test.ts`).
 */
import { loadConfig } from '../config-load.ts';
import type { CaseStatus } from '../results.ts';
import { runScenario } from '../run-scenario.ts';
import type { LoadedScenario } from '../scenario/types.ts';
import { ADAPTERS_DIR, loadAdapterFile } from './load.ts';
import { runAdapterScenario } from './run-adapter.ts';
import path from 'node:path';

/** The agreement CI requires, as a fraction of the cases both runs score. */
export const MIN_AGREEMENT = 0.95;

/**
 * Why each known disagreement is not the black-box scorer's error (or is, and is accepted):
 * case id → reason. A disagreement missing here fails the calibration test.
 */
export const KNOWN_DISAGREEMENTS: Readonly<Record<string, string>> = {
  'budget/wall-time':
    'a 1 ms wall budget: in-process the injected clock lets the first turn happen; served, the real clock has passed 1 ms before the first request, so the run stops with no request, which the stop check refuses to read as a budget stop (a harness that never calls the model must not pass budget cases)',
};

/** One case's two verdicts. */
export interface CalibrationRow {
  id: string;
  inProcess: CaseStatus;
  served: CaseStatus;
  /** The served run's first failed check or skip reason, when it has one. */
  servedNote?: string;
  /** The in-process run's first failed check, when it has one. */
  inProcessNote?: string;
}

/** The whole measurement. `agreement` is `agreeing / joint` (1 when nothing is scored jointly). */
export interface Calibration {
  rows: CalibrationRow[];
  /** Cases neither run skipped. */
  joint: number;
  agreeing: number;
  agreement: number;
  disagreements: CalibrationRow[];
}

/**
 * Runs `scenarios` in-process and through `adapters/ours-served.json` under the default
 * configuration and compares the statuses (see the module comment). Never throws for a case;
 * may reject for a bench fault (a scorer exception).
 */
export async function calibrate(scenarios: readonly LoadedScenario[]): Promise<Calibration> {
  const served = loadAdapterFile(path.join(ADAPTERS_DIR, 'ours-served.json'));
  // The main job's default configuration (configs/default.json), as `npm start` runs it.
  const { name, config } = loadConfig();
  const base = { name, config };
  const rows: CalibrationRow[] = [];
  for (const loaded of scenarios) {
    const white = (await runScenario(loaded, base)).result;
    const black = (await runAdapterScenario(loaded, base, served)).result;
    rows.push({
      id: loaded.scenario.id,
      inProcess: white.status,
      served: black.status,
      ...(black.firstFailure || black.skip ? { servedNote: black.firstFailure ?? black.skip!.reason } : {}),
      ...(white.firstFailure ? { inProcessNote: white.firstFailure } : {}),
    });
  }
  const jointRows = rows.filter((r) => r.inProcess !== 'skipped' && r.served !== 'skipped');
  const disagreements = jointRows.filter((r) => r.inProcess !== r.served);
  const agreeing = jointRows.length - disagreements.length;
  return {
    rows,
    joint: jointRows.length,
    agreeing,
    agreement: jointRows.length === 0 ? 1 : agreeing / jointRows.length,
    disagreements,
  };
}

/** The calibration as the Markdown table of `docs/calibration.md`: the figures, then every disagreement with its reason. Pure. */
export function calibrationMarkdown(result: Calibration): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const skippedServed = result.rows.filter((r) => r.served === 'skipped').length;
  const lines = [
    `${result.rows.length} scenarios; both runs score ${result.joint} (the served run skips ${skippedServed} that do not apply to a foreign harness or need a prerequisite missing here); they agree on ${result.agreeing}: **${pct(result.agreement)}** (CI requires ${pct(MIN_AGREEMENT)}).`,
    '',
  ];
  if (result.disagreements.length === 0) return [...lines, 'No disagreement.', ''].join('\n');
  lines.push('| case | in-process | served | why |', '| --- | --- | --- | --- |');
  for (const row of result.disagreements) {
    const why =
      KNOWN_DISAGREEMENTS[row.id] ?? `not explained yet: ${row.servedNote ?? row.inProcessNote ?? ''}`;
    lines.push(`| \`${row.id}\` | ${row.inProcess} | ${row.served} | ${why.replaceAll('|', '\\|')} |`);
  }
  return [...lines, ''].join('\n');
}
