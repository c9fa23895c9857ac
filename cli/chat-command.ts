/**
 * `harness-bench chat`: the interactive harness on a live OpenAI-compatible endpoint. Each line
 * typed at the prompt continues the same conversation (one harness run per line, with every
 * harness feature: budgets, policy, approvals, loop detection). Asks are answered in the
 * terminal (approve, deny, or approve this shape for the session); a status line on stderr
 * shows what the harness is doing and the active todo; Ctrl-C cancels the running turn cleanly
 * (`human_cancelled`, every pending call answered), and at the prompt twice quits, as do
 * `/exit` and end of input. The transcript is kept in `~/.harness-bench/sessions/<id>.jsonl` for
 * `--resume ID` (see `chat-session-file.ts`); `--record FILE` writes the session as a cassette on exit.
 *
 * Exit 0; 1 when the recorded cassette was refused by the secret scan; 2 on bad input.
 */
import type { EventEmitter } from 'node:events';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { liveDeps } from '../harness/deps.ts';
import type { HarnessEvent } from '../harness/events.ts';
import type { ChatMessage } from '../harness/model/types.ts';
import { saveCassette } from '../eval/cassette/load.ts';
import { InputError } from '../eval/errors.ts';
import { idFromFileName } from '../eval/import/common.ts';
import { RecordRefusedError } from '../eval/record/session-recorder.ts';
import { terminalApprover } from './chat-approver.ts';
import {
  appendMessages,
  createSession,
  loadSession,
  sessionFile,
  sessionsDirectory,
} from './chat-session-file.ts';
import { StatusLine } from './chat-status.ts';
import { type CliIo, VERSION } from './io.ts';
import { liveSession, recordTarget, type RecordHooks } from './live-session.ts';
import { describeTracing, liveTracing, traceTarget, type TraceFlags } from '../eval/trace/cli-tracing.ts';
import { GEN_AI } from '../eval/trace/semconv.ts';
import { loadConfigs } from './run-command.ts';

/** Flags of `chat`. */
export interface ChatFlags extends TraceFlags {
  baseUrl?: string;
  model?: string;
  workspace?: string;
  config?: string;
  resume?: string;
  record?: string;
  /** `--no-stream` sets false. @default true */
  stream?: boolean;
  force?: boolean;
}

/** The terminal the chat talks to; injected so tests drive it through streams. */
export interface ChatStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Treat the streams as a terminal (line editing, history, Ctrl-C from readline). @default input.isTTY */
  terminal?: boolean;
  /** Emits `SIGINT` for Ctrl-C. @default the readline interface (terminal), plus the process signal otherwise */
  interrupts?: EventEmitter;
}

/** Lines from readline, queued, so the prompt and approval questions read them in turn. */
class LineReader {
  private readonly queue: string[] = [];
  private waiter: ((line: string | undefined) => void) | undefined;
  private closed = false;

  constructor(private readonly rl: Interface) {
    rl.on('line', (line) => {
      const waiter = this.waiter;
      this.waiter = undefined;
      if (waiter) waiter(line);
      else this.queue.push(line);
    });
    rl.on('close', () => {
      this.closed = true;
      this.cancel();
    });
  }

  /** Writes `prompt` and resolves with the next line; `undefined` at end of input or on {@link cancel}. */
  ask(prompt: string, options: { fresh?: boolean } = {}): Promise<string | undefined> {
    if (options.fresh) this.queue.length = 0;
    if (this.queue.length > 0) return Promise.resolve(this.queue.shift());
    if (this.closed) return Promise.resolve(undefined);
    this.rl.setPrompt(prompt);
    this.rl.prompt();
    return new Promise((resolve) => (this.waiter = resolve));
  }

  /** Resolves a pending question with `undefined`. */
  cancel(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.(undefined);
  }
}

/** Runs `chat`; resolves with the exit code when the person leaves. @throws InputError (exit 2) */
export async function chatCommand(
  flags: ChatFlags,
  io: CliIo,
  streams?: ChatStreams,
  hooks: RecordHooks = {},
): Promise<number> {
  if (flags.resume && flags.record)
    throw new InputError([
      {
        file: '(flags)',
        path: '--record',
        reason:
          'cannot record a resumed session: the cassette would miss the earlier transcript; start a new chat to record',
      },
    ]);
  const target = recordTarget({ ...flags, ...(flags.record ? { out: flags.record } : {}) }, io);
  const trace = traceTarget(flags, io.env);
  const [named] = loadConfigs(flags.config ? [flags.config] : undefined, io.cwd);
  const base = hooks.deps ?? liveDeps();
  const id = flags.resume ?? base.newId('ses_');
  const file = sessionFile(sessionsDirectory(io.env), id);
  let history: ChatMessage[] = [];
  if (flags.resume) {
    const loaded = loadSession(file);
    history = loaded.messages;
    if (loaded.damaged.length > 0)
      io.stderr(`warning: ${file}: skipped damaged lines ${loaded.damaged.join(', ')}\n`);
    if (loaded.header && loaded.header.workspace !== target.workspace)
      io.stderr(
        `note: session ${id} worked in ${loaded.header.workspace}; continuing in ${target.workspace}\n`,
      );
  }
  const input = streams?.input ?? process.stdin;
  const output = streams?.output ?? process.stdout;
  const terminal = streams?.terminal ?? Boolean((input as { isTTY?: boolean }).isTTY);
  const rl = createInterface({ input, output, terminal, historySize: 200 });
  const reader = new LineReader(rl);
  const write = (text: string) => void output.write(text);
  const status = new StatusLine(io.stderr, io.isTTY);
  let turn: AbortController | undefined;
  const approver = terminalApprover(
    async (prompt) => {
      status.stop();
      const answer = await reader.ask(prompt, { fresh: true });
      if (turn && !turn.signal.aborted) status.start();
      return answer;
    },
    write,
    target.workspace,
  );
  // One trace per user line, all of them under the session's conversation id.
  const tracing = trace
    ? liveTracing(
        { ...trace, ...(trace.file ? { file: path.resolve(io.cwd, trace.file) } : {}) },
        VERSION,
        target,
        {
          attributes: { [GEN_AI.conversationId]: id },
        },
      )
    : undefined;
  const deps = { ...base, approver, onEvent: (event: HarnessEvent) => status.onEvent(event) };
  const session = liveSession(target, named!.config, io, {
    deps: tracing ? tracing.subscribe(deps) : deps,
    ...(flags.stream === false ? { stream: false } : {}),
    ...(hooks.fetch ? { fetch: hooks.fetch } : {}),
  });
  await session.start();
  if (!flags.resume)
    createSession(file, {
      id,
      createdAt: new Date(base.now()).toISOString(),
      model: target.model,
      baseURL: target.baseURL,
      workspace: target.workspace,
    });

  let quitArmed = false;
  const onInterrupt = () => {
    if (turn) {
      if (!turn.signal.aborted) write('\n(cancelling the turn…)\n');
      turn.abort();
      reader.cancel();
      return;
    }
    if (quitArmed) return rl.close();
    quitArmed = true;
    write('\n(press Ctrl-C again, or type /exit, to quit)\n');
    rl.prompt();
  };
  const interrupts: EventEmitter[] = streams?.interrupts
    ? [streams.interrupts]
    : terminal
      ? [rl]
      : [rl, process];
  for (const emitter of interrupts) emitter.on('SIGINT', onInterrupt);

  write(
    `harness-bench chat · ${target.model} at ${target.baseURL} · config ${named!.name} · workspace ${target.workspace}\n` +
      `session ${id}${flags.resume ? ` resumed (${history.length} messages)` : ''} · resume with: harness-bench chat --resume ${id}\n` +
      `/exit quits · Ctrl-C cancels the running turn${flags.record ? ` · recording to ${path.relative(io.cwd, target.out!) || target.out}` : ''}\n`,
  );
  try {
    for (;;) {
      const line = await reader.ask('› ');
      if (line === undefined) break;
      quitArmed = false;
      const text = line.trim();
      if (text === '') continue;
      if (text === '/exit' || text === '/quit') break;
      turn = new AbortController();
      status.start();
      const run = await session.run(text, { history, signal: turn.signal });
      status.stop();
      turn = undefined;
      appendMessages(file, run.messages.slice(history.length));
      history = run.messages;
      if (run.stopReason === 'final_answer') write(`${run.finalAnswer ?? ''}\n`);
      else
        write(
          `(stopped: ${run.stopReason}${run.stopDetail ? ` — ${run.stopDetail}` : ''})\n${run.finalAnswer ? `${run.finalAnswer}\n` : ''}`,
        );
    }
  } finally {
    status.stop();
    for (const emitter of interrupts) emitter.off('SIGINT', onInterrupt);
    rl.close();
    if (trace && tracing) io.stderr(`${describeTracing(trace, await tracing.close())}\n`);
  }
  if (!flags.record) return 0;
  if (session.recorder.exchanges().length === 0) {
    io.stderr(`nothing was recorded (no exchange reached the server); ${target.out} was not written\n`);
    return 0;
  }
  try {
    const cassette = session.cassette({
      id: idFromFileName(target.out!),
      title: `chat: ${session.runs.length} turns`,
    });
    saveCassette(target.out!, cassette);
    io.stderr(
      `wrote ${path.relative(io.cwd, target.out!) || target.out} (${cassette.exchanges.length} exchanges); replay it offline with: harness-bench replay ${path.relative(io.cwd, target.out!) || target.out}\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof RecordRefusedError)) throw error;
    io.stderr(`harness-bench: refusing to write ${target.out}: ${error.message}\nNothing was written.\n`);
    return 1;
  }
}
