/**
 * Checks of what a cassette's responses hold, beyond the schema: a success response whose body
 * was cut off or stored in an unreadable encoding, or a stream with an event that is not JSON,
 * cannot be replayed as a model turn. Such a cassette is bad input (exit 2 in `validate`,
 * `replay` and `run -r`), never a failed case of the harness that replays it.
 */
import type { InputProblem } from '../errors.ts';

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const tail = (text: string) => JSON.stringify(text.length > 40 ? `…${text.slice(-40)}` : text);

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** True for text that holds bytes no text body has: U+FFFD (undecodable UTF-8) or C0 controls. */
function unreadable(text: string): boolean {
  return /\uFFFD|[\u0000-\u0008\u000E-\u001F]/.test(text);
}

/**
 * The problems of the 2xx responses of `doc` (a schema-valid cassette): a JSON body kept as text
 * that does not parse (cut off), a text body in an unreadable encoding (a compressed body stored
 * undecoded), and an SSE event whose data is neither JSON, `[DONE]` nor empty. Error responses
 * (4xx, 5xx) are what the provider said and are never checked. Pure; never throws.
 */
export function responseContentProblems(doc: unknown, file: string): InputProblem[] {
  const problems: InputProblem[] = [];
  const exchanges = isObj(doc) && Array.isArray(doc.exchanges) ? doc.exchanges : [];
  exchanges.forEach((exchange, i) => {
    const response = isObj(exchange) && isObj(exchange.response) ? exchange.response : undefined;
    const status = typeof response?.status === 'number' ? response.status : 0;
    if (!response || status < 200 || status >= 300) return;
    const at = `/exchanges/${i}/response`;
    const { body, events } = response;
    if (typeof body === 'string') {
      const text = body.trim();
      if (unreadable(body))
        problems.push({
          file,
          path: `${at}/body`,
          reason:
            'the body is not readable text (a compressed or binary body stored undecoded?): re-import the recording',
        });
      else if (/^[{[]/.test(text) && !parses(text))
        problems.push({
          file,
          path: `${at}/body`,
          reason: `a JSON body that does not parse, cut off (truncated) at ${tail(text)}: re-record or re-import it`,
        });
    }
    if (Array.isArray(events))
      events.forEach((event, j) => {
        const data = isObj(event) && typeof event.data === 'string' ? event.data.trim() : '';
        if (data === '' || data === '[DONE]' || parses(data)) return;
        problems.push({
          file,
          path: `${at}/events/${j}/data`,
          reason: `an event whose data is not JSON (a malformed or cut-off SSE event) at ${tail(data)}`,
        });
      });
  });
  return problems;
}
