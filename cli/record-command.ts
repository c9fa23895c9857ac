import path from 'node:path';
import { liveDeps } from '../harness/deps.ts';
import { saveCassette } from '../eval/cassette/load.ts';
import { InputError } from '../eval/errors.ts';
import { idFromFileName } from '../eval/import/common.ts';
import { RecordRefusedError } from '../eval/record/session-recorder.ts';
import { describeTracing, liveTracing, traceTarget } from '../eval/trace/cli-tracing.ts';
import { palette, useColor } from '../reports/color.ts';
import { EXIT_CODES } from './errors.ts';
import { ledgerLines } from './ledger-lines.ts';
import { type CliIo, VERSION } from './io.ts';
import { recordBatchCommand } from './record-batch.ts';
import { liveSession, recordTarget, type RecordFlags, type RecordHooks } from './live-session.ts';
import { loadConfigs } from './run-command.ts';

/** Runs `record`; resolves with the exit code. @throws InputError (exit 2) */
export async function recordCommand(flags: RecordFlags, io: CliIo, hooks: RecordHooks = {}): Promise<number> {
  if (flags.tasks !== undefined || flags.task === undefined) {
    if (flags.tasks === undefined || flags.task !== undefined)
      throw new InputError([
        {
          file: '(flags)',
          path: '--task',
          reason: 'give --task TEXT (one task) or --tasks FILE (several), not both',
        },
      ]);
    return recordBatchCommand(
      { ...flags, tasks: flags.tasks },
      io,
      hooks.fetch ? { fetch: hooks.fetch } : {},
    );
  }
  const resolved = recordTarget(flags, io);
  const target = { ...resolved, out: resolved.out! };
  const trace = traceTarget(flags, io.env);
  const [named] = loadConfigs(flags.config ? [flags.config] : undefined, io.cwd);
  const c = palette(useColor({ isTTY: io.isTTY }, io.env));
  if (!target.apiKey)
    io.stderr(
      `note: no HARNESS_API_KEY or OPENAI_API_KEY set; sending a placeholder key (fine for local servers)\n`,
    );
  if (named!.config.permissions.mode === 'interactive')
    io.stderr(
      `note: configuration ${named!.name} is interactive, but record has nobody to ask: every ask is denied (use permissions.mode "auto" to approve)\n`,
    );
  const tracing = trace
    ? liveTracing(
        { ...trace, ...(trace.file ? { file: path.resolve(io.cwd, trace.file) } : {}) },
        VERSION,
        target,
      )
    : undefined;
  const deps = tracing ? tracing.subscribe(hooks.deps ?? liveDeps()) : hooks.deps;
  const session = liveSession(target, named!.config, io, {
    ...(flags.stream === false ? { stream: false } : {}),
    ...(hooks.fetch ? { fetch: hooks.fetch } : {}),
    ...(deps ? { deps } : {}),
  });
  const fixture = await session.start();
  if (!fixture.ok)
    io.stderr(
      `note: no workspace fixture in the cassette: ${fixture.reason}; replay it with --workspace DIR\n`,
    );
  else if (fixture.skipped.length > 0)
    io.stderr(`note: left out of the workspace fixture: ${fixture.skipped.join(', ')}\n`);
  io.stderr(`recording ${target.model} at ${target.baseURL} under ${named!.name}…\n`);
  const run = await session.run(flags.task);
  if (trace && tracing) io.stderr(`${describeTracing(trace, await tracing.close())}\n`);
  for (const note of session.recorder.notes) io.stderr(`warning: ${note}\n`);
  const out: string[] = [
    c.bold(`record ${path.basename(target.out)}: ${target.model} at ${target.baseURL} under ${named!.name}`),
    ...ledgerLines(run.ledger, c),
  ];
  out.push(`stop reason: ${run.stopReason}${run.stopDetail ? ` (${run.stopDetail})` : ''}`);
  if (run.finalAnswer) out.push(`answer: ${run.finalAnswer}`);
  io.stdout(`${out.join('\n')}\n`);
  if (session.recorder.exchanges().length === 0) {
    io.stderr(
      `harness-bench: nothing was recorded (no exchange reached the server); ${target.out} was not written; is the server up at ${target.baseURL}?\n`,
    );
    return EXIT_CODES.environment; // the network or the server, not a failed case
  }
  try {
    const cassette = session.cassette({
      id: idFromFileName(target.out),
      ...(flags.title ? { title: flags.title } : {}),
    });
    saveCassette(target.out, cassette);
    io.stdout(
      `wrote ${path.relative(io.cwd, target.out) || target.out} (${cassette.exchanges.length} exchanges, ${run.usage.modelCalls} model calls); replay it offline with: harness-bench replay ${path.relative(io.cwd, target.out) || target.out}\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof RecordRefusedError)) throw error;
    io.stderr(
      `harness-bench: refusing to write ${target.out}: ${error.message}\nNothing was written. Remove the secret at its source (the workspace, the environment, the server's response) and record again.\n`,
    );
    return 1;
  }
}
