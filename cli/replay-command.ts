/**
 * `harness-bench replay CASSETTE [--config FILE] [--match strict|sequential|counterfactual]
 * [--then FILE] [--workspace DIR]`: the model frozen, the harness live. Prints the ledger step
 * by step, then, for a cassette we recorded, the comparison with the recorded ledger: the first
 * divergence as the headline (step, decision, recorded vs now, and the configuration key or
 * rule that changed it), every further difference, every request that differs, and unused
 * exchanges. Exit 0 when the replay matches (an imported cassette: when it runs without error),
 * 1 when a cassette we recorded diverges, 2 on a broken cassette, configuration or flag.
 * `--workspace DIR` runs on a copy of DIR (the folder is left as it was) unless `--in-place`.
 * Needs no API key and never reaches the network (nock: loopback only).
 */
import { cpSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import nock from 'nock';
import { ScriptedModel } from '../harness/model/scripted-model.ts';
import { loadCassette } from '../eval/cassette/load.ts';
import { InputError } from '../eval/errors.ts';
import type { MatchMode } from '../eval/replay/http-replay.ts';
import { formatConfigChange } from '../eval/replay/config-diff.ts';
import { formatLedgerDifference } from '../eval/replay/ledger-diff.ts';
import { formatDivergence } from '../eval/replay/request-diff.ts';
import { isOwnRecording } from '../eval/replay/replay-recorded.ts';
import { loadScriptedTurns } from '../eval/replay/scripted-turns.ts';
import { runRecording, isImported } from '../eval/run-recording.ts';
import { findingsNote } from '../reports/findings-note.ts';
import { loadSidecar } from '../eval/replay/tool-effects.ts';
import { palette, useColor } from '../reports/color.ts';
import { ledgerLines } from './ledger-lines.ts';
import type { CliIo } from './io.ts';
import { loadConfigs } from './run-command.ts';

/** Flags of `replay`. */
export interface ReplayFlags {
  config?: string;
  workspace?: string;
  /** With `workspace`: the tools change that folder itself instead of a copy. */
  inPlace?: boolean;
  match?: MatchMode;
  /** Counterfactual: a JSON or YAML file of scripted turns (an array, or a scenario whose `model` is used), checked by `eval/replay/scripted-turns.ts`. */
  then?: string;
}

/** Runs `replay`; resolves with the exit code. @throws InputError (exit 2) */
export async function replayCommand(file: string, flags: ReplayFlags, io: CliIo): Promise<number> {
  const cassette = loadCassette(path.resolve(io.cwd, file));
  const toolEffects = loadSidecar(path.resolve(io.cwd, file));
  const [config] = loadConfigs(flags.config ? [flags.config] : undefined, io.cwd);
  if (flags.then && flags.match !== 'counterfactual')
    throw new InputError([
      { file: '(flags)', path: '--then', reason: 'only applies with --match counterfactual' },
    ]);
  const then = flags.then
    ? new ScriptedModel(loadScriptedTurns(path.resolve(io.cwd, flags.then), flags.then), {
        name: 'counterfactual',
      })
    : undefined;
  const own = isOwnRecording(cassette);
  if (flags.match === 'counterfactual' && !own)
    throw new InputError([
      {
        file,
        path: '--match',
        reason:
          'counterfactual replays need a cassette recorded by harness-bench (record or chat --record); replay an imported one with strict or sequential',
      },
    ]);
  if (flags.inPlace && !flags.workspace)
    throw new InputError([
      { file: '(flags)', path: '--in-place', reason: 'only applies with --workspace DIR' },
    ]);
  const workspace = flags.workspace ? workspaceFor(path.resolve(io.cwd, flags.workspace), flags) : undefined;
  try {
    return await replayIn(file, flags, io, { cassette, config: config!, then, own, workspace, toolEffects });
  } finally {
    if (workspace && !flags.inPlace) rmSync(workspace, { recursive: true, force: true });
  }
}

/**
 * The folder the replay's tools work in: `dir` itself with `--in-place`, else a fresh copy of it
 * (links copied as links). @throws InputError when `dir` does not exist or is a file.
 */
function workspaceFor(dir: string, flags: ReplayFlags): string {
  const info = statSync(dir, { throwIfNoEntry: false });
  if (!info?.isDirectory())
    throw new InputError([
      {
        file: `--workspace ${flags.workspace}`,
        path: '',
        reason: info ? 'is a file; --workspace takes a folder' : 'does not exist',
      },
    ]);
  if (flags.inPlace) return dir;
  const copy = mkdtempSync(path.join(tmpdir(), 'hb-replay-ws-'));
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
  return copy;
}

async function replayIn(
  file: string,
  flags: ReplayFlags,
  io: CliIo,
  inputs: {
    cassette: ReturnType<typeof loadCassette>;
    config: ReturnType<typeof loadConfigs>[number];
    then: ScriptedModel | undefined;
    own: boolean;
    workspace: string | undefined;
    toolEffects: ReturnType<typeof loadSidecar>;
  },
): Promise<number> {
  const { cassette, config, then, own, workspace, toolEffects } = inputs;
  const c = palette(useColor({ isTTY: io.isTTY }, io.env));
  // The lock stays after the replay: the command is the last thing the process does, and a
  // test calling it keeps the same loopback-only lock (test-setup.ts) instead of losing it.
  nock.disableNetConnect();
  nock.enableNetConnect(/^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/);
  const { result, run, comparison } = await runRecording(cassette, file, config, {
    ...(flags.match ? { match: flags.match } : {}),
    ...(workspace ? { workspace } : {}),
    ...(then ? { then } : {}),
    ...(toolEffects.length > 0 ? { toolEffects } : {}),
  });
  const kind = isImported(cassette)
    ? 'imported, sequential by default'
    : own
      ? 'recorded by harness-bench, strict by default'
      : 'recorded, strict by default';
  const out: string[] = [
    c.bold(
      `replay ${result.id} (${kind}${flags.match ? `; --match ${flags.match}` : ''}) under ${config.name}`,
    ),
  ];
  if (flags.workspace)
    out.push(
      c.dim(
        flags.inPlace
          ? `workspace: ${flags.workspace} itself (--in-place: the tools may change it)`
          : `workspace: a copy of ${flags.workspace} (the folder is left as it was; --in-place to work in it)`,
      ),
    );
  if (own && !cassette.meta.workspace && !flags.workspace)
    out.push(
      c.yellow(
        'note: the cassette has no workspace fixture; tools ran in an empty folder (pass --workspace DIR)',
      ),
    );
  out.push(...(run ? ledgerLines(run.ledger, c) : []));
  out.push(
    `stop reason: ${result.stopReason ?? 'none'}${result.stopDetail ? ` (${result.stopDetail})` : ''}`,
  );
  if (comparison) {
    if (comparison.handoverAt !== undefined)
      out.push(
        c.cyan(
          `counterfactual: followed the recording for ${comparison.handoverAt} exchanges, then ${then ? 'handed over to the scripted turns' : 'stopped'}`,
        ),
      );
    if (comparison.headline) out.push(c.yellow(`first divergence: ${comparison.headline}`));
    else out.push(c.green('no divergence: the replayed ledger and every request match the recording'));
    for (const d of comparison.ledgerDifferences.slice(1)) out.push(`  ${formatLedgerDifference(d)}`);
    const requests = comparison.requestDivergences;
    if (requests.length > 0) {
      out.push(`requests that differ from the recording (${requests.length}):`);
      for (const d of requests) out.push(`  request ${d.exchange}: ${formatDivergence(d)}`);
    }
    if (comparison.configChanges.length > 0)
      out.push(
        `configuration changed since recording: ${comparison.configChanges.map(formatConfigChange).join('; ')}`,
      );
    if (comparison.unusedExchanges > 0)
      out.push(c.yellow(`${comparison.unusedExchanges} recorded exchanges were not used`));
  } else {
    if (result.divergences.length === 0)
      out.push(c.green('no divergence: the harness sent what was recorded'));
    else {
      const [first, ...rest] = result.divergences;
      out.push(c.yellow(`first divergence: request ${first!.exchange}: ${formatDivergence(first!)}`));
      for (const d of rest) out.push(`  request ${d.exchange}: ${formatDivergence(d)}`);
    }
    if (result.findings?.unusedExchanges)
      out.push(c.yellow(`${result.findings.unusedExchanges} recorded exchanges were not used`));
    for (const t of result.findings?.nonModelTraffic ?? [])
      out.push(`non-model traffic, not served: ${t.method} ${t.url} (${t.status || 'no status'}): ${t.note}`);
    for (const e of result.findings?.toolEffects ?? []) out.push(`tool ${e.tool}: ${e.effect} (${e.rule})`);
    if (result.findings) out.push(`findings: ${findingsNote(result)}`);
  }
  if (result.error) out.push(c.red(`error: ${result.error.message}`));
  out.push(
    result.status === 'pass'
      ? c.green('PASS')
      : c.red(
          result.status === 'fail'
            ? `FAIL: ${result.firstFailure}`
            : 'ERROR: the cassette cannot be replayed',
        ),
  );
  io.stdout(`${out.join('\n')}\n`);
  return result.status === 'pass' ? 0 : result.status === 'fail' ? 1 : 2;
}
