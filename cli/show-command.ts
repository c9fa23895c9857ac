/**
 * `harness-bench show CASE [-c CONFIG] [--results DIR]`: the turn-by-turn ledger of one case of a
 * stored run (model turn, tool calls with arguments, verdicts with the deciding rule, results,
 * stop reason, failed checks), read from the case's sidecar (`reports/case-file.ts`). Exit 0
 * when shown, 2 when the results, the case or its sidecar cannot be found (with what exists).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { InputError, parseJsonInput } from '../eval/errors.ts';
import { checkResultsShape } from '../eval/merge.ts';
import { discoverProjectConfig } from '../eval/project-config.ts';
import { describeFailure, type CaseResult, type ResultsFile } from '../eval/results.ts';
import { isFailedCheck } from '../eval/expect/check.ts';
import { caseFilePath, readCaseFile, type CaseFile } from '../reports/case-file.ts';
import { palette, useColor } from '../reports/color.ts';
import type { CliIo } from './io.ts';
import { conversationLines } from './conversation-lines.ts';
import { ledgerLines, turnTexts } from './ledger-lines.ts';

/** Flags of `show`. */
export interface ShowFlags {
  config?: string;
  /**
   * The folder of `results.json` and `cases/` (a `run --out` folder).
   * @default the `out` of the project configuration that applies in the working folder (where a
   *   plain `run` wrote), else `reports/latest` (where `npm start` writes)
   */
  results?: string;
}

/**
 * Reads `results.json` of a run folder (or the file itself) and checks it against the results
 * schema. @throws InputError (unreadable, not JSON, or each schema problem with its JSON path)
 */
export function readResults(where: string): { file: string; dir: string; results: ResultsFile } {
  const file = /\.json$/i.test(where) ? where : path.join(where, 'results.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError([
      {
        file,
        path: '',
        reason: `cannot read the results: ${(error as Error).message.split('\n')[0]}; run \`harness-bench run --out DIR\` first`,
      },
    ]);
  }
  // The whole shape, not only the format: a damaged file is refused here (exit 2) instead of
  // failing in the renderers.
  return { file, dir: path.dirname(file), results: checkResultsShape(parseJsonInput(text, file), file) };
}

/**
 * The case `id` under `config`: an exact id, else the one id containing `id`; with several
 * configurations and none named, the only one the case ran under. @throws InputError naming the choices
 */
export function pickCase(
  results: ResultsFile,
  id: string,
  config: string | undefined,
  file: string,
): CaseResult {
  const ids = [...new Set(results.cases.map((c) => c.id))];
  const exact = ids.includes(id) ? [id] : ids.filter((x) => x.toLowerCase().includes(id.toLowerCase()));
  if (exact.length !== 1)
    throw new InputError([
      {
        file,
        path: id,
        reason:
          exact.length === 0
            ? `no case "${id}" in these results (${ids.length} cases; e.g. ${ids.slice(0, 3).join(', ')})`
            : `"${id}" matches ${exact.length} cases: ${exact.slice(0, 8).join(', ')}${exact.length > 8 ? ', …' : ''}`,
      },
    ]);
  const under = results.cases.filter((c) => c.id === exact[0]);
  const picked = config ? under.find((c) => c.config === config) : under.length === 1 ? under[0] : undefined;
  if (!picked)
    throw new InputError([
      {
        file,
        path: '-c',
        reason: `${config ? `case "${exact[0]}" did not run under "${config}"` : `case "${exact[0]}" ran under several configurations`}; pass -c with one of: ${under.map((c) => c.config).join(', ')}`,
      },
    ]);
  return picked;
}

/** The lines `show` prints for one case and its sidecar. */
export function showLines(result: CaseResult, sidecar: CaseFile, c: ReturnType<typeof palette>): string[] {
  const out = [c.bold(`${result.id} under ${result.config}: ${result.status}`), `file: ${result.file}`];
  if (sidecar.run && result.harness)
    out.push(...conversationLines(sidecar.run.requests, result, c, 100, sidecar.harness?.stderr));
  else if (sidecar.run) {
    const texts = turnTexts(sidecar.run.events);
    out.push(...ledgerLines(sidecar.run.ledger, c, { detail: true, width: 100, texts }));
  } else out.push(c.dim('(the case did not run: no ledger)'));
  if (!result.harness)
    out.push(
      `stop reason: ${result.stopReason ?? 'none'}${result.stopDetail ? ` (${result.stopDetail})` : ''}`,
    );
  const answer = sidecar.run?.finalAnswer ?? sidecar.harness?.finalAnswer;
  if (answer) out.push(`final answer: ${JSON.stringify(answer.slice(0, 200))}`);
  const failed = result.checks.filter(isFailedCheck);
  for (const check of failed) out.push(c.red(`✗ ${describeFailure(check)}`));
  if (result.skip) out.push(c.cyan(`skipped: ${result.skip.reason}; fix: ${result.skip.fix}`));
  if (result.error) out.push(c.red(`error: ${result.error.message}`));
  return out;
}

/**
 * Where `show` looks without `--results`: the project's `out` (`harness-bench.config.yaml` at or
 * above `cwd`, as `run` finds it), else `reports/latest`. @throws InputError for a broken project file
 */
export function defaultResultsDir(cwd: string): string {
  const project = discoverProjectConfig(cwd);
  return project?.out ? path.resolve(project.dir, project.out) : path.resolve(cwd, 'reports/latest');
}

/** Runs `show`; resolves with the exit code. @throws InputError (exit 2) */
export async function showCommand(id: string, flags: ShowFlags, io: CliIo): Promise<number> {
  const where = flags.results === undefined ? defaultResultsDir(io.cwd) : path.resolve(io.cwd, flags.results);
  const { file, dir, results } = readResults(where);
  const result = pickCase(results, id, flags.config, file);
  const relative = result.transcript ?? caseFilePath(result.config, result.id);
  const sidecar = readCaseFile(dir, relative);
  if (!sidecar)
    throw new InputError([
      {
        file: path.join(dir, relative),
        path: '',
        reason:
          'no transcript for this case (results written without --out keep none); run again with --out DIR',
      },
    ]);
  io.stdout(`${showLines(result, sidecar, palette(useColor({ isTTY: io.isTTY }, io.env))).join('\n')}\n`);
  return 0;
}
