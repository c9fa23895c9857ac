/**
 * A foreign harness's conversation as `show` and `run --verbose` print it: a black box has no
 * ledger of ours, so the lines come from the requests it sent to the model endpoint. Each request
 * shows what is new in it since the one before: the model turn it was served (text and tool calls
 * with their arguments), the tool messages it answered them with, any other message it added;
 * then how it stopped, and the last lines it wrote on stderr (why a crashed harness gave up).
 * Pure.
 */
import type { ModelRequest } from '../harness/model/types.ts';
import type { palette } from '../reports/color.ts';
import { ENDINGS } from '../eval/blackbox/score.ts';
import type { CaseResult } from '../eval/results.ts';

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value
      .map((part) => (isObj(part) && typeof part.text === 'string' ? part.text : '[part]'))
      .join('');
  return value === null || value === undefined ? '' : (JSON.stringify(value) ?? '');
}

function cut(value: string, width: number): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

/** The lines of one message a harness sent, indented; tool calls one line each. */
function messageLines(message: unknown, width: number, c: ReturnType<typeof palette>): string[] {
  if (!isObj(message)) return [`  ${c.red(`(not a message: ${cut(text(message), width)})`)}`];
  const role = String(message.role ?? '?');
  const out: string[] = [];
  const body = text(message.content);
  if (role === 'tool')
    out.push(`  tool ${String(message.tool_call_id ?? '(no id)')}: ${JSON.stringify(cut(body, width))}`);
  else if (body !== '') out.push(`  ${role}: ${JSON.stringify(cut(body, width))}`);
  for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
    const fn = isObj(call) && isObj(call.function) ? call.function : {};
    const id = isObj(call) && typeof call.id === 'string' ? call.id : '(no id)';
    const args = typeof fn.arguments === 'string' ? fn.arguments : (JSON.stringify(fn.arguments) ?? '');
    out.push(`  ${role} calls ${id} ${String(fn.name ?? '?')}(${cut(args, width)})`);
  }
  if (out.length === 0) out.push(`  ${role}: (empty)`);
  return out;
}

/** How many of the last lines of a harness's stderr the conversation shows. */
const STDERR_LINES = 5;

/**
 * The conversation of `requests` (as the bench recorded them, in our tool names): for each
 * request, a header and the messages that were not in the one before (the first request shows
 * all of them); then how the harness ended (`result.harness`) and the last lines of its `stderr`
 * (a command's, from the case's sidecar), each cut at `width`.
 */
export function conversationLines(
  requests: readonly ModelRequest[],
  result: Pick<CaseResult, 'harness'>,
  c: ReturnType<typeof palette>,
  width = 100,
  stderr = '',
): string[] {
  const out: string[] = [];
  let seen = 0;
  requests.forEach((request, i) => {
    const messages = Array.isArray(request.messages) ? (request.messages as unknown[]) : [];
    const fresh = messages.slice(i === 0 ? 0 : Math.min(seen, messages.length));
    const rewritten =
      i > 0 && messages.length < seen ? ' (it rewrote the history: fewer messages than before)' : '';
    out.push(`request ${i + 1}: ${messages.length} messages, ${fresh.length} new${rewritten}`);
    for (const message of fresh) out.push(...messageLines(message, width, c));
    seen = messages.length;
  });
  if (requests.length === 0) out.push(c.dim('(it sent no request to the model endpoint)'));
  const h = result.harness;
  if (h) {
    const ended = [
      h.ending ? ENDINGS[h.ending] : undefined,
      h.exitCode !== undefined ? `exit code ${h.exitCode}` : undefined,
      h.stopReason ? `reported stop reason ${h.stopReason}` : undefined,
      h.timedOut,
      h.error ? `error: ${h.error}` : undefined,
    ].filter(Boolean);
    out.push(`harness ${h.name}: ${ended.join(', ') || 'ended'}`);
  }
  const logged = stderr.split('\n').filter((line) => line.trim() !== '');
  for (const line of logged.slice(-STDERR_LINES)) out.push(c.dim(`stderr: ${cut(line, width)}`));
  return out;
}
