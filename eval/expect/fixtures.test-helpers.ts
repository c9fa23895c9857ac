/**
 * Fixtures for the golden tests of the expectation handlers: a small finished run (two read
 * calls, a denied write, a bash call), builders for calls and events, and `checksFor`, which
 * runs the registry on one expectation and returns the checks of that key only.
 */
import type { HarnessEvent } from '../../harness/events.ts';
import type { CallRecord, RunResult } from '../../harness/ledger.ts';
import type { ChatMessage } from '../../harness/model/types.ts';
import type { Expectations } from '../scenario/types.ts';
import type { Check } from './check.ts';
import type { CheckEnv, ExpectContext } from './context.ts';
import { HANDLERS, type Handler } from './registry.ts';

/** A call record: an executed, allowed, successful `read_file` unless overridden. */
export function call(callId: string, over: Partial<CallRecord> = {}): CallRecord {
  return {
    callId,
    turn: 1,
    scope: [],
    tool: 'read_file',
    arguments: '{"path":"a.txt"}',
    normalisations: [],
    verdict: 'allow',
    executed: true,
    ok: true,
    content: 'text',
    ...over,
  };
}

/** An event of `type` with `seq` 0 and the top-level scope unless `extra` says otherwise. */
export function event(type: HarnessEvent['type'], extra: Record<string, unknown> = {}): HarnessEvent {
  return { type, seq: 0, atMs: 0, scope: [], ...extra } as unknown as HarnessEvent;
}

/** A bash call record whose result reports `exitCode`. */
export function bash(
  callId: string,
  command: string,
  exitCode = 0,
  over: Partial<CallRecord> = {},
): CallRecord {
  return call(callId, {
    tool: 'bash',
    arguments: JSON.stringify({ command }),
    content: `exit code: ${exitCode}\nstdout:\nok`,
    ...over,
  });
}

/** The stored conversation of the fixture run. */
export const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'Fix the failing test in src/sum.ts.' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'c1', content: 'text' },
  { role: 'assistant', content: 'All done.' },
];

/** A finished run that ended with a final answer; override any field. */
export function fixtureRun(over: Partial<RunResult> = {}): RunResult {
  return {
    runId: 'r',
    stopReason: 'final_answer',
    finalAnswer: 'All done.',
    messages: MESSAGES,
    requests: [
      { model: 'm', messages: MESSAGES.slice(0, 2) },
      { model: 'm', messages: MESSAGES.slice(0, 4) },
    ],
    events: [event('run_start'), event('run_end', { seq: 1 })],
    ledger: { turns: [], calls: [call('c1')], stopReason: 'final_answer' },
    usage: {
      modelCalls: 2,
      turns: 2,
      toolCalls: 1,
      promptTokens: 900,
      completionTokens: 100,
      totalTokens: 1000,
      maxPromptTokens: 600,
      costUsd: 0.01,
      wallMs: 1500,
    },
    ...over,
  };
}

/** An environment with no folders to read (handlers that need files get their own). */
export const NO_FILES: CheckEnv = {
  workspace: '/nonexistent/ws',
  outside: '/nonexistent/out',
  outsideChanges: [],
};

/** Runs the handler of `key` alone and returns its checks as `{ name, pass, reason }`. */
export async function golden<K extends keyof Expectations>(
  key: K,
  value: Expectations[K],
  run: RunResult = fixtureRun(),
  context: Partial<Omit<ExpectContext, 'run'>> = {},
): Promise<Pick<Check, 'name' | 'pass' | 'reason'>[]> {
  const full: ExpectContext = {
    run,
    env: NO_FILES,
    subject: { id: 'fixture', tags: [], task: 'Fix the failing test in src/sum.ts.', config: 'default' },
    ...context,
  };
  const checks = await (HANDLERS[key] as Handler<K>)(value, full);
  return checks.map(({ name, pass, reason }) => ({ name, pass, reason }));
}
