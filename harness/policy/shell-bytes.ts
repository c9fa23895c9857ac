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
 * - any other control character (U+0001–U+0008, U+000E–U+001F, DEL): word characters for both in
 *   the middle of a word, but the parser splits a word at one that follows a closing quote
 *   (`'a'\x01'b'` is one word for bash, two for the parser; found by the oracle).
 *
 * The Unicode spaces (NBSP, U+2000–U+200A, U+2028, U+3000, BOM) are word characters for both.
 *
 * Beside bytes, two structures are read differently (found by the oracle, `shell.oracle.test.ts`):
 * backticks separated by blanks (`` `a` `b` ``), which the grammar lexes as one token `` ` ` ``;
 * a newline followed by a backslash-escaped character (`echo a` newline `\rm -rf x`), which the
 * grammar lexes as one word and bash as the end of one command and the start of the next; and a
 * here-document whose end line holds more than its delimiter (`EOF || x`), which bash does not
 * take as the end ({@link parserDifferential}).
 */
import type { ShellNode } from './shell-parser.ts';

/** Characters that are blanks for the parser and word characters for bash, or that bash cannot receive. */
export const AMBIGUOUS_CHARACTERS = /[\x00-\x08\x0b-\x1f\x7f]/;
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
    const what =
      NAMES[char[0]] ??
      `the control character U+${char[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`;
    return `it holds ${what} (at character ${at + 1}), which the parser and bash read differently (a blank, a word break or nothing for one, part of a word for the other), so bash may run other commands than the ones checked`;
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

/** A structure the parser and bash read differently, and the command as bash reads it when it can be rewritten so the parser agrees. */
export interface ParserDifferential {
  reason: string;
  /** The command rewritten the way bash reads it (line continuations joined, word-breaking newlines made separators), to analyse as well. */
  repaired?: string;
}

const GAP_NEIGHBOUR = /[^\s;&|()<>]/;

/**
 * The structure the grammar gives `source` (parsed as `root`) that bash does not share (see the
 * file comment), or undefined.
 */
export function parserDifferential(root: ShellNode, source: string): ParserDifferential | undefined {
  if (/`[ \t]+`/.test(source))
    for (const node of root.descendantsOfType('``'))
      if (node && node.text !== '``')
        return {
          reason: `backticks separated by a blank (${JSON.stringify(node.text)}) are one token for the parser and the end and start of two substitutions for bash`,
        };
  if (source.includes('\\\n')) {
    // A line continuation between two word characters joins them for bash (`r\⏎m` is `rm`); the parser takes it as a blank.
    let repaired = source;
    let joined = false;
    for (const m of [...source.matchAll(/\\\n/g)].reverse()) {
      const at = m.index;
      const node = root.descendantForIndex(at, at + 2);
      if (node && TEXT_LEAVES.has(node.type) && node.startIndex <= at && node.endIndex >= at + 2) continue;
      if (GAP_NEIGHBOUR.test(source[at - 1] ?? ' ') && GAP_NEIGHBOUR.test(source[at + 2] ?? ' '))
        joined = true;
      repaired = repaired.slice(0, at) + repaired.slice(at + 2);
    }
    if (joined)
      return {
        reason:
          'a line continuation (backslash, newline) inside a word joins the two halves for bash and splits them for the parser',
        repaired,
      };
  }
  if (source.includes('\n')) {
    // Only a command's own words: the operand of `${x-…}` is raw text that may hold a whole script.
    const own = (w: ShellNode) =>
      w.parent?.type === 'command' ||
      w.parent?.type === 'command_name' ||
      (w.parent?.type === 'concatenation' && w.parent.parent?.type === 'command');
    const words = root
      .descendantsOfType('word')
      .filter((w) => w && own(w) && /(^|[^\\])(\\\\)*\n/.test(w.text));
    if (words.length > 0) {
      let repaired = source;
      for (const word of [...words].reverse()) {
        const at = word!.startIndex + word!.text.search(/\n/);
        repaired = `${repaired.slice(0, at)};${repaired.slice(at)}`;
      }
      return {
        reason: `the word ${JSON.stringify(words[0]!.text)} holds an unescaped newline for the parser, where bash ends the command and starts another`,
        repaired,
      };
    }
  }
  if (/[\\'"]/.test(source)) {
    // Two words with nothing between them are one word for bash; the grammar sometimes splits one there (`'a'\#'b'`).
    const REDIRECTS = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
    for (const command of root.descendantsOfType('command')) {
      if (!command) continue;
      let previous: ShellNode | undefined;
      for (const child of command.namedChildren) {
        if (!child || REDIRECTS.has(child.type) || child.type === 'variable_assignment') {
          previous = undefined;
          continue;
        }
        if (previous && previous.endIndex === child.startIndex)
          return {
            reason: `the parser splits ${JSON.stringify(previous.text + child.text)} into two words, bash reads one`,
          };
        previous = child;
      }
    }
  }
  if (source.includes('==') || source.includes('=~')) {
    // After a `==` or `=~` argument the grammar may lex the rest of the command as one regex word, hiding its redirections.
    // And a file-descriptor number right after it (`== 2>&1`) becomes a word instead of the redirection's descriptor.
    const tokens = root.descendantsOfType(['==', '=~']).filter((t) => {
      const next = t?.nextNamedSibling;
      return (
        t?.parent?.type === 'command' &&
        (next?.type === 'regex' ||
          (next !== null && /^\d+$/.test(next?.text ?? '') && /[<>]/.test(source[next!.endIndex] ?? '')))
      );
    });
    if (tokens.length > 0) {
      let repaired = source;
      for (const t of [...tokens].reverse())
        repaired = `${repaired.slice(0, t!.startIndex)}'${t!.text}'${repaired.slice(t!.endIndex)}`;
      return {
        reason: `the parser reads the words after ${JSON.stringify(tokens[0]!.text)} as one pattern (${JSON.stringify(tokens[0]!.nextNamedSibling!.text)}), bash as words and redirections`,
        repaired,
      };
    }
  }
  if (source.includes('<<'))
    for (const start of root.descendantsOfType('heredoc_start'))
      if (start && GAP_NEIGHBOUR.test(source[start.endIndex] ?? ' '))
        return {
          reason: `the here-document delimiter ${JSON.stringify(start.text + source.slice(start.endIndex).split(/[\s;&|()<>]/)[0])} is one word for bash and a shorter one for the parser, so they end the here-document at different lines`,
        };
  if (source.includes('<<'))
    for (const end of root.descendantsOfType('heredoc_end')) {
      if (!end) continue;
      const eol = source.indexOf('\n', end.endIndex);
      let after = source.slice(end.endIndex, eol < 0 ? source.length : eol);
      // Inside `$( … )` bash also ends a here-document at the delimiter followed by the closing parenthesis.
      let up = end.parent;
      while (up && up.type !== 'command_substitution') up = up.parent;
      if (up && /^[ \t]*\)/.test(after)) after = '';
      const lineStart = source.lastIndexOf('\n', end.startIndex - 1) + 1;
      const before = source.slice(lineStart, end.startIndex);
      const stripsTabs = end.parent?.children.some((c) => c?.type === '<<-') === true;
      if (after !== '' || !(stripsTabs ? /^\t*$/ : /^$/).test(before))
        return {
          reason: `the line ${JSON.stringify(source.slice(lineStart, end.endIndex + after.length))} ends a here-document for the parser but not for bash (the line must hold the delimiter alone), so bash feeds the rest of the command to the here-document`,
        };
    }
  return undefined;
}
