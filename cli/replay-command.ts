/**
 * `harness-bench replay CASSETTE`: the model frozen, the harness live. Prints the ledger step by
 * step, then the first divergence as the headline, every further one, and unused exchanges.
 * Exit 0 when the replay passes, 1 when a cassette we recorded diverges (or the run errors),
 * 2 on a broken cassette or configuration. Needs no API key and never reaches the network.
 */
import path from 'node:path';
import nock from 'nock';
import { loadCassette } from '../eval/cassette/load.ts';
import { formatDivergence } from '../eval/replay/request-diff.ts';
import { runRecording, isImported } from '../eval/run-recording.ts';
import { palette, useColor } from '../reports/color.ts';
import type { CliIo } from './main.ts';
import { loadConfigs } from './run-command.ts';

/** Flags of `replay`. */
export interface ReplayFlags {
  config?: string;
  workspace?: string;
  match?: 'strict' | 'sequential';
}

/** Runs `replay`; resolves with the exit code. @throws InputError (exit 2) */
export async function replayCommand(file: string, flags: ReplayFlags, io: CliIo): Promise<number> {
  const cassette = loadCassette(path.resolve(io.cwd, file));
  const [config] = loadConfigs(flags.config ? [flags.config] : undefined, io.cwd);
  const c = palette(useColor({ isTTY: io.isTTY }, io.env));
  nock.disableNetConnect();
  nock.enableNetConnect(/^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/);
  try {
    const { result, run } = await runRecording(cassette, file, config!, {
      ...(flags.match ? { match: flags.match } : {}),
      ...(flags.workspace ? { workspace: path.resolve(io.cwd, flags.workspace) } : {}),
    });
    const out: string[] = [];
    out.push(c.bold(`replay ${result.id} (${isImported(cassette) ? 'imported, sequential by default' : 'recorded, strict by default'}) under ${config!.name}`));
    for (const turn of run?.ledger.turns ?? []) {
      out.push(`turn ${turn.turn}${turn.wrapUp ? ' (wrap-up)' : ''}: ${turn.ok ? `finish ${turn.finishReason ?? 'none'}, ${turn.toolCalls} tool calls, ${turn.promptTokens}+${turn.completionTokens} tokens` : c.red(`model error ${turn.error?.code}: ${turn.error?.message}`)}`);
      for (const call of run!.ledger.calls.filter((x) => x.turn === turn.turn && x.scope.length === 0)) {
        const outcome = call.ok ? c.green('ok') : c.red(call.errorType ?? 'error');
        out.push(`  ${call.callId} ${call.tool}(${call.arguments.length > 60 ? `${call.arguments.slice(0, 57)}...` : call.arguments}) verdict ${call.verdict}, ${call.executed ? 'executed' : 'not executed'}, ${outcome}`);
      }
    }
    out.push(`stop reason: ${result.stopReason ?? 'none'}${result.stopDetail ? ` (${result.stopDetail})` : ''}`);
    if (result.divergences.length === 0) out.push(c.green('no divergence: the harness sent what was recorded'));
    else {
      out.push(c.yellow(`first divergence: ${formatDivergence(result.divergences[0]!)}`));
      for (const d of result.divergences.slice(1)) out.push(`  ${formatDivergence(d)}`);
    }
    if (result.findings?.unusedExchanges) out.push(c.yellow(`${result.findings.unusedExchanges} recorded exchanges were not used`));
    if (result.error) out.push(c.red(`error: ${result.error.message}`));
    out.push(result.status === 'pass' ? c.green('PASS') : c.red(result.status === 'fail' ? `FAIL: ${result.firstFailure}` : 'ERROR'));
    io.stdout(`${out.join('\n')}\n`);
    return result.status === 'pass' ? 0 : 1;
  } finally {
    nock.enableNetConnect();
  }
}
