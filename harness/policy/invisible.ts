/**
 * Nothing hidden from the approver: control and invisible characters in what an approval shows
 * (commands, paths, arguments, rules) are written as escapes (`harness/policy/approval.ts`).
 */

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
