/**
 * A case's observable behaviour in the compact form the repository approves (`approved/`,
 * `docs/approved-behaviour.md`): every request sent to the model (only the messages new since the
 * request before it, the tools by name with a hash of their schemas, the settings), every call
 * with its verdict, whether it ran and the result the model saw, the event sequence, the stop
 * reason, the final answer, the usage and each check's outcome. Texts longer than
 * {@link KEEP_CHARS} keep their start and a SHA-256 of the whole, so a reviewer reads what matters
 * and any change of a byte is still seen. Built from a run whose clock and ids are injected and
 * whose temp folders show as labels, so two runs give the same behaviour. Times are left out, and
 * so is the output of real commands (its exit line is kept): it is the host's, not the harness's.
 */
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import type { RunResult } from '../../harness/ledger.ts';
import type { ChatMessage } from '../../harness/model/types.ts';
import type { CaseResult } from '../results.ts';

/** Texts up to this many characters are kept whole; longer ones are clipped and hashed. */
export const KEEP_CHARS = 240;
/** Characters kept of a clipped text. */
const HEAD_CHARS = 160;

/** The approved form of one case under one configuration. */
export interface Behaviour {
  status: CaseResult['status'];
  stopReason: CaseResult['stopReason'];
  /** `name:pass`, `name:fail` or `name:n/a`, in check order. */
  checks: string[];
  finalAnswer: string | null;
  /** Counts, and tokens and cost (USD) unless a real command's output (the host's) was in the run. */
  usage: {
    modelCalls: number;
    turns: number;
    toolCalls: number;
    promptTokens?: number;
    completionTokens?: number;
    costUsd?: number;
  };
  requests: BehaviourRequest[];
  calls: unknown[][];
  /** Event types in order, runs of one type written `type×n`. */
  events: string[];
}

/** One request: what changed since the one before. */
export interface BehaviourRequest {
  model: string;
  /** How many messages of the previous request it starts with (0: the history was rewritten). */
  kept: number;
  /** The messages after those. */
  new: unknown[];
  /** Tool names, then `sha256:…` of their schemas. */
  tools: string[];
  settings?: unknown;
}

/** The host's home folder, written `$HOME` in approved texts (a denial names where `~` resolves). */
const HOME = homedir();

/**
 * A text as approved: the host's home folder as `$HOME`, then whole up to {@link KEEP_CHARS}, else
 * its start and a hash of the whole. Pure but for reading the home folder once.
 */
export function clip(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const text = HOME.length > 1 ? raw.split(HOME).join('$HOME') : raw;
  if (text.length <= KEEP_CHARS) return text;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  return `${text.slice(0, HEAD_CHARS)}…[${text.length} chars, sha256:${hash}]`;
}

/** The result text of a real command (`shapeCommandOutput`, `harness/tools/builtin/bash.ts`). */
const COMMAND_RESULT = /^(exit code: [^\n]*)\n(stdout:|stderr:|\(no output\))/;

/**
 * A tool result as approved: a real command's output is the host's (its environment, its files,
 * its programs), so only its exit line is kept; any other text as it is. Scripted commands and
 * every other tool keep their whole text. Pure.
 */
export function hostFree(text: string): string {
  const command = COMMAND_RESULT.exec(text);
  return command ? `${command[1]} [the command's output depends on the host: not approved]` : text;
}

function hashOf(value: unknown): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16)}`;
}

function message(m: ChatMessage): unknown {
  const text = typeof m.content === 'string' || m.content === null ? m.content : JSON.stringify(m.content);
  const content = clip(m.role === 'tool' && text !== null ? hostFree(text) : text);
  const calls = (m as { tool_calls?: { id?: string; function?: { name?: string; arguments?: unknown } }[] })
    .tool_calls;
  const id = (m as { tool_call_id?: string }).tool_call_id;
  return [
    m.role,
    content,
    ...(id !== undefined ? [`id:${id}`] : []),
    ...(calls ?? []).map((c) => [
      c.id ?? null,
      c.function?.name ?? null,
      clip(
        typeof c.function?.arguments === 'string'
          ? c.function.arguments
          : JSON.stringify(c.function?.arguments),
      ),
    ]),
  ];
}

function requests(run: RunResult): BehaviourRequest[] {
  let previous: ChatMessage[] = [];
  return run.requests.map((request) => {
    const messages = request.messages;
    const kept =
      previous.length > 0 &&
      previous.length <= messages.length &&
      isDeepStrictEqual(messages.slice(0, previous.length), previous)
        ? previous.length
        : 0;
    previous = messages;
    const tools = request.tools ?? [];
    return {
      model: request.model,
      kept,
      new: messages.slice(kept).map(message),
      tools: [...tools.map((t) => t.function.name), ...(tools.length > 0 ? [hashOf(tools)] : [])],
      ...(request.settings || request.tool_choice !== undefined || request.stream
        ? { settings: { ...request.settings, tool_choice: request.tool_choice, stream: request.stream } }
        : {}),
    };
  });
}

function events(run: RunResult): string[] {
  const out: string[] = [];
  let last: string | undefined;
  let count = 0;
  const flush = () => {
    if (last !== undefined) out.push(count > 1 ? `${last}×${count}` : last);
  };
  for (const event of run.events) {
    if (event.type === last) count += 1;
    else {
      flush();
      last = event.type;
      count = 1;
    }
  }
  flush();
  return out;
}

/** The behaviour of `result` and its run (see the module comment). Pure. */
export function behaviourOf(result: CaseResult, run: RunResult): Behaviour {
  const u = result.usage;
  const hostOutput = run.ledger.calls.some((c) => hostFree(c.content) !== c.content);
  return {
    status: result.status,
    stopReason: result.stopReason,
    checks: result.checks.map(
      (c) => `${c.name}:${c.pass ? 'pass' : c.status === 'not_applicable' ? 'n/a' : 'fail'}`,
    ),
    finalAnswer: clip(run.finalAnswer),
    // Tokens and cost count the text of real commands' output, which is the host's: kept only without it.
    usage: hostOutput
      ? { modelCalls: u.modelCalls, turns: u.turns, toolCalls: u.toolCalls }
      : {
          modelCalls: u.modelCalls,
          turns: u.turns,
          toolCalls: u.toolCalls,
          promptTokens: u.promptTokens,
          completionTokens: u.completionTokens,
          costUsd: u.costUsd,
        },
    requests: requests(run),
    calls: run.ledger.calls.map((c) => [
      c.callId,
      c.scope.join('/'),
      c.tool,
      clip(c.arguments),
      c.normalisations.join(','),
      c.verdict,
      c.executed,
      c.ok,
      c.errorType ?? null,
      clip(hostFree(c.content)),
    ]),
    events: events(run),
  };
}
