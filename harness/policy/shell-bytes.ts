/**
 * Characters tree-sitter-bash and bash read differently, so the analysis refuses (asks for)
 * any command holding them instead of trusting its parse. Established by experiment against
 * bash 5.2 (`shell-bytes.test.ts` re-runs the experiment against the installed bash, and the
 * property test `shell.oracle.test.ts` compares whole commands under xtrace):
 *
 * - carriage return, vertical tab and form feed: tree-sitter's lexer takes them as blanks (its
 *   `\s`), bash as word characters (its only blanks are space and tab, bash manual §2
 *   "Definitions"). `echo a\r# ; touch x` is one `echo` with a comment for the parser and two
 *   commands for bash; `\` CR LF is a line continuation for the parser and an escaped CR plus a
 *   newline for bash.
 * - NUL: bash cannot receive it (argv strings end at NUL) and the parser reads past it.
 * - a backslash before a space, tab, vertical tab or form feed between words: tree-sitter takes
 *   the pair as a blank (its grammar's extras include `\\( |\t|\v|\f)`), bash as an escaped
 *   character that starts a word (`echo \ # x; id` runs `id` for bash, a comment for the parser).
 *
 * Other control characters (U+0001–U+0008, U+000E–U+001F, DEL) and the Unicode spaces (NBSP,
 * U+2000–U+200A, U+2028, U+3000, BOM) are word characters for both.
 */
import type { ShellNode } from './shell-parser.ts';

/** Characters that are blanks for the parser and word characters for bash, or that bash cannot receive. */
export const AMBIGUOUS_CHARACTERS = /[\r\v\f\0]/;
const BACKSLASH_BLANK = /\\[ \t\v\f]/g;
/** Nodes whose whole text is literal content: a backslash-blank inside them is part of a word for both readers. */
const TEXT_LEAVES = new Set([
  'word',
  'string_content',
  'raw_string',
  'ansi_c_string',
  'comment',
  'heredoc_body',
  'heredoc_content',
  'string',
  'translated_string',
  'number',
  'regex',
  'extglob_pattern',
]);

const NAMES: Record<string, string> = {
  '\r': 'a carriage return',
  '\v': 'a vertical tab',
  '\f': 'a form feed',
  '\0': 'a NUL',
};

/**
 * Why bash would read `source` (parsed as `root`) differently from the parser, or undefined
 * when it would not.
 */
export function ambiguousBytes(root: ShellNode, source: string): string | undefined {
  const char = AMBIGUOUS_CHARACTERS.exec(source);
  if (char) {
    const at = char.index;
    return `it holds ${NAMES[char[0]]} (at character ${at + 1}), which the parser reads as a blank or skips and bash as part of a word, so bash may run other commands than the ones checked`;
  }
  if (!source.includes('\\')) return undefined;
  for (const m of source.matchAll(BACKSLASH_BLANK)) {
    const node = root.descendantForIndex(m.index, m.index + 2);
    if (node && TEXT_LEAVES.has(node.type) && node.startIndex <= m.index && node.endIndex >= m.index + 2)
      continue;
    return `it holds a backslash before a blank between words (at character ${m.index + 1}), which the parser skips as a blank and bash reads as an escaped character starting a word, so bash may run other commands than the ones checked`;
  }
  return undefined;
}
