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

/**
 * Escapes control and invisible characters (except newline and tab) as `\u{…}` so nothing is
 * hidden: C0/C1 controls, zero-width characters, bidi marks, embeddings, overrides and isolates
 * (U+202A–202E, U+2066–2069: "Trojan Source", CVE-2021-42574) and the BOM.
 */
export function escapeInvisible(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u061c\u2060-\u2069\ufeff]/gu,
    (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`,
  );
}
