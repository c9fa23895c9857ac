/**
 * Output shaping at the tool: a result longer than `maxChars` keeps its head and tail with a
 * marked elision in between that says how much was cut, so the model knows it is not seeing
 * everything (`docs/architecture.md` §7).
 */

/** Cuts `text` to at most about `maxChars` characters: 70% head, 30% tail, and a marker line. */
export function capOutput(text: string, maxChars: number): { text: string; cut: number } {
  if (text.length <= maxChars) return { text, cut: 0 };
  const head = Math.floor(maxChars * 0.7);
  const tail = Math.max(0, maxChars - head);
  const cut = text.length - head - tail;
  const marker = `\n[… ${cut} characters elided of ${text.length}; narrow the request (offset/limit, a pattern) to see them …]\n`;
  return { text: text.slice(0, head) + marker + (tail > 0 ? text.slice(text.length - tail) : ''), cut };
}
