/**
 * Handler for `requests`: what the harness sent to the model, request by request. Each item
 * selects requests (`at`: a 1-based index, `first`, `last`, `all` (default), or `stored`, the
 * conversation as the harness kept it), then messages (`messages`: `all` (default), `last`,
 * `older` (all but the last), and `role`), and checks:
 * - `contains`: each pattern is in some selected message of every selected request;
 * - `absent`: no pattern is in any selected message of any selected request;
 * - `maxTokens`: every selected request counts at most this many tokens (the tokenizer count the
 *   harness itself uses, `harness/context/tokens.ts`).
 * A pattern is a string (case-insensitive substring) or `{ "regex": "/body/flags" }`. A message
 * is searched as its text plus, for an assistant turn, each tool call as `name(arguments)`.
 * "The task and the todo list survive compaction" is `{ at: all, contains: [task, todo] }`; "a
 * reminder is never stored" is `{ at: stored, absent: [<reminder>] }` and
 * `{ at: all, messages: older, absent: [<reminder>] }`.
 */
import { countRequest } from '../../harness/context/tokens.ts';
import type { ChatMessage } from '../../harness/model/types.ts';
import type { Expectations, RequestExpectation, TextPattern } from '../scenario/types.ts';
import { makeCheck, show, type Check } from './check.ts';
import type { ExpectContext } from './context.ts';
import { parseRegex } from './patterns.ts';

/**
 * The text of one message as `requests` searches it: its content (text parts joined), and each
 * tool call as `name(arguments)` as sent, compact and with spaces (however the harness serialised them).
 */
export function messageText(message: ChatMessage): string {
  const content = message.content as unknown;
  const parts = [
    Array.isArray(content)
      ? content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('')
      : typeof content === 'string'
        ? content
        : '',
  ];
  if (message.role === 'assistant')
    for (const call of message.tool_calls ?? []) {
      const args = call.function.arguments;
      parts.push(`${call.function.name}(${args})`);
      // The same call however the harness serialised the arguments: compact, and with spaces.
      for (const form of argumentForms(args)) if (form !== args) parts.push(`${call.function.name}(${form})`);
    }
  return parts.join('\n');
}

/** The arguments text as compact JSON and as JSON with `", "` and `": "` separators; none when it does not parse. */
function argumentForms(args: unknown): string[] {
  let value: unknown;
  try {
    value = typeof args === 'string' ? JSON.parse(args) : args;
  } catch {
    return [];
  }
  const compact = JSON.stringify(value);
  if (compact === undefined) return [];
  const spaced = JSON.stringify(value, (_k, v: unknown) => v).replace(
    /("(?:[^"\\]|\\.)*")|([,:])/g,
    (_m, str: string | undefined, sep: string | undefined) => str ?? `${sep} `,
  );
  return [compact, spaced];
}

/** True when `text` holds the pattern: a case-insensitive substring, or a regular expression match. */
export function patternIn(pattern: TextPattern, text: string): boolean {
  if (typeof pattern === 'string') return text.toLowerCase().includes(pattern.toLowerCase());
  return parseRegex(pattern.regex).test(text);
}

const patternLabel = (pattern: TextPattern) =>
  typeof pattern === 'string' ? show(pattern) : `/${pattern.regex}/`;

/** One selected request: its label for reasons, the messages chosen, and the request (absent for `stored`). */
interface Selected {
  label: string;
  messages: ChatMessage[];
  tokens?: number;
}

/** The requests `at` selects, or a reason why there are none. */
function selectRequests(item: RequestExpectation, context: ExpectContext): Selected[] | string {
  const { requests, messages } = context.run;
  const at = item.at ?? 'all';
  const pick = (index: number): Selected => ({
    label: `request ${index + 1}`,
    messages: requests[index]!.messages,
    tokens: countRequest(requests[index]!),
  });
  if (at === 'stored') return [{ label: 'the stored conversation', messages }];
  if (requests.length === 0) return 'the run sent no request';
  if (at === 'all') return requests.map((_, i) => pick(i));
  if (at === 'first') return [pick(0)];
  if (at === 'last') return [pick(requests.length - 1)];
  if (at > requests.length) return `there is no request ${at}: the run sent ${requests.length}`;
  return [pick(at - 1)];
}

/** The messages of a request the item looks at. */
function selectMessages(item: RequestExpectation, messages: readonly ChatMessage[]): ChatMessage[] {
  const which = item.messages ?? 'all';
  const chosen =
    which === 'last' ? messages.slice(-1) : which === 'older' ? messages.slice(0, -1) : [...messages];
  return item.role === undefined ? chosen : chosen.filter((m) => m.role === item.role);
}

function scopeText(item: RequestExpectation): string {
  const which = item.messages ?? 'all';
  const messages = which === 'all' ? 'messages' : which === 'last' ? 'last message' : 'older messages';
  return item.role ? `${item.role} ${messages}` : messages;
}

function whichRequests(at: RequestExpectation['at']): string {
  if (at === undefined || at === 'all') return 'every request';
  if (at === 'stored') return 'the stored conversation';
  return typeof at === 'number' ? `request ${at}` : `the ${at} request`;
}

/** Lists labels compactly: `request 2, 3, 4` (at most 8, then `…`). */
function labels(list: readonly string[]): string {
  const numbers = list.map((l) => /^request (\d+)$/.exec(l)?.[1]);
  const shown = numbers.every((n) => n !== undefined)
    ? `request ${numbers.slice(0, 8).join(', ')}`
    : list.slice(0, 8).join(', ');
  return list.length > 8 ? `${shown}, …` : shown;
}

/** `requests`: per item, checks `requests.<i>.contains`, `.absent`, `.maxTokens`. */
export function checkRequests(want: Expectations['requests'], context: ExpectContext): Check[] {
  const checks: Check[] = [];
  for (const [index, item] of (want ?? []).entries()) {
    const name = `requests.${index}`;
    const selected = selectRequests(item, context);
    const where = `${scopeText(item)} of ${whichRequests(item.at)}`;
    if (typeof selected === 'string') {
      for (const key of ['contains', 'absent', 'maxTokens'] as const)
        if (item[key] !== undefined)
          checks.push(makeCheck(`${name}.${key}`, false, item[key], null, selected));
      continue;
    }
    const texts = selected.map((s) => ({
      label: s.label,
      texts: selectMessages(item, s.messages).map(messageText),
    }));
    if (item.contains !== undefined) {
      const missing = item.contains.flatMap((pattern) => {
        const lacking = texts
          .filter((t) => !t.texts.some((text) => patternIn(pattern, text)))
          .map((t) => t.label);
        return lacking.length > 0 ? [`${patternLabel(pattern)} missing in ${labels(lacking)}`] : [];
      });
      checks.push(
        makeCheck(
          `${name}.contains`,
          missing.length === 0,
          item.contains,
          missing.length === 0 ? 'present' : missing,
          missing.length === 0
            ? `every pattern is in the ${where} (${selected.length} checked)`
            : `${missing.join('; ')} (looked in the ${where})`,
        ),
      );
    }
    if (item.absent !== undefined) {
      const found = item.absent.flatMap((pattern) => {
        const holding = texts
          .filter((t) => t.texts.some((text) => patternIn(pattern, text)))
          .map((t) => t.label);
        return holding.length > 0 ? [`${patternLabel(pattern)} found in ${labels(holding)}`] : [];
      });
      checks.push(
        makeCheck(
          `${name}.absent`,
          found.length === 0,
          item.absent,
          found.length === 0 ? 'absent' : found,
          found.length === 0
            ? `no pattern is in the ${where} (${selected.length} checked)`
            : `${found.join('; ')} (looked in the ${where})`,
        ),
      );
    }
    if (item.maxTokens !== undefined) {
      const bound = item.maxTokens;
      const sized = selected.filter((s) => s.tokens !== undefined);
      const over = sized.filter((s) => s.tokens! > bound);
      const largest = Math.max(0, ...sized.map((s) => s.tokens!));
      checks.push(
        makeCheck(
          `${name}.maxTokens`,
          over.length === 0 && sized.length > 0,
          `<= ${bound}`,
          largest,
          sized.length === 0
            ? 'the stored conversation is not a request; maxTokens applies to requests'
            : over.length === 0
              ? `the largest selected request counts ${largest} tokens, bound ${bound}`
              : `${over.map((s) => `${s.label} counts ${s.tokens}`).join(', ')} tokens, bound ${bound}`,
        ),
      );
    }
  }
  return checks;
}
