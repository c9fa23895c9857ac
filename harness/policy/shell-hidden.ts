/**
 * Substitutions hidden in text the grammar leaves unparsed, or that bash evaluates again: where
 * each `` `…` ``, `$(…)`, `<(…)` and `>(…)` starts, where it ends (bash ends it where its parser
 * completes it: each candidate end is parsed in turn), and its body. Used by the sweep of the
 * syntax tree (`shell-sweep.ts`) and, on a static value bash evaluates again, by
 * {@link substitutionsInText}. Bash semantics followed: the bash manual §6.5 and §6.7
 * (arithmetic evaluation and array subscripts expand their operands again).
 */
import { parseShell, type ShellTree } from './shell-parser.ts';

/** Node types of the substitutions that run commands. */
export const SUBSTITUTIONS = new Set(['command_substitution', 'process_substitution']);
/** Substitutions nested in hidden text deeper than this are not parsed: ask. */
export const MAX_FRAGMENT_DEPTH = 16;
/** How many closing parentheses are tried to find where a hidden `$(` ends. */
const MAX_END_CANDIDATES = 64;
/** How much of an unparsed substitution is kept for the finding. Characters. */
export const SHOWN_CHARS = 200;

/** A hidden substitution: where it starts and its kind. */
export interface HiddenStart {
  at: number;
  kind: 'backtick' | 'paren';
}

/** True when the character at `index` of `text` is escaped by an odd run of backslashes. */
function escaped(text: string, index: number): boolean {
  let count = 0;
  for (let i = index - 1; i >= 0 && text[i] === '\\'; i -= 1) count += 1;
  return count % 2 === 1;
}

/**
 * Pushes onto `starts` the substitution starts in `text[from, to)`: `<(` and `>(` only when
 * `processSubstitution`, escaped ones skipped unless `ignoreEscapes`.
 */
export function startsIn(
  text: string,
  from: number,
  to: number,
  processSubstitution: boolean,
  ignoreEscapes: boolean,
  starts: HiddenStart[],
): void {
  for (let i = from; i < to; i += 1) {
    const char = text[i]!;
    if (char !== '`' && char !== '$' && char !== '<' && char !== '>') continue;
    if (!ignoreEscapes && escaped(text, i)) continue;
    if (char === '`') starts.push({ at: i, kind: 'backtick' });
    else if (text[i + 1] === '(' && (char === '$' || processSubstitution))
      starts.push({ at: i, kind: 'paren' });
  }
}

/** Parses `: FRAGMENT` and returns the tree when the fragment is exactly one error-free substitution (or arithmetic expansion). */
function parseFragment(fragment: string): ShellTree | undefined {
  const tree = parseShell(`: ${fragment}`);
  const command = tree.rootNode.namedChildren[0];
  const argument = command?.type === 'command' ? command.childForFieldName('argument') : null;
  const whole =
    !tree.rootNode.hasError &&
    tree.rootNode.namedChildCount === 1 &&
    argument !== null &&
    argument !== undefined &&
    (SUBSTITUTIONS.has(argument.type) || argument.type === 'arithmetic_expansion') &&
    argument.startIndex === 2 &&
    argument.endIndex === fragment.length + 2;
  if (whole) return tree;
  tree.delete();
  return undefined;
}

/**
 * Parses the hidden substitution starting at `start` (ending before `limit`): bash ends it where
 * its parser completes it, so each candidate end is tried in turn and the first that parses as
 * one substitution wins. Returns the tree and the end, or the last candidate end (or `limit`)
 * when none parses.
 */
export function parseHidden(
  text: string,
  limit: number,
  start: HiddenStart,
  ignoreEscapes: boolean,
): { tree: ShellTree; end: number } | { tree?: undefined; end: number } {
  const ends: number[] = [];
  if (start.kind === 'backtick') {
    let i = start.at + 1;
    while (i < limit && !(text[i] === '`' && (ignoreEscapes || !escaped(text, i)))) i += 1;
    if (i < limit) ends.push(i + 1);
  } else {
    for (let i = start.at + 2; i < limit && ends.length < MAX_END_CANDIDATES; i += 1)
      if (text[i] === ')') ends.push(i + 1);
  }
  for (const end of ends) {
    const tree = parseFragment(text.slice(start.at, end));
    if (tree) return { tree, end };
  }
  return { end: ends[ends.length - 1] ?? limit };
}

/** The text inside a substitution from `start` to `end` (without `$(`, `<(`, backticks and the closing one when present). */
export function bodyOf(source: string, start: HiddenStart, end: number): string {
  const closed =
    start.kind === 'backtick' ? end - 1 > start.at && source[end - 1] === '`' : source[end - 1] === ')';
  return source.slice(start.at + (start.kind === 'backtick' ? 1 : 2), closed ? end - 1 : end);
}

/** Substitutions in a static text that bash may evaluate again: the scripts they run, and what could not be parsed. */
export interface TextSubstitutions {
  scripts: string[];
  unparsed: string[];
}

/**
 * The command substitutions in a static value that bash evaluates again as an arithmetic
 * expression or a variable name with a subscript (`unset 'a[$(…)]'`, `declare 'a[$(…)]=1'`,
 * `x='a[$(…)]'` used later in `$((x))`): quotes and backslashes do not protect them there.
 * Arithmetic expansions inside are searched too. The parser must be loaded.
 */
export function substitutionsInText(text: string, depth = 0): TextSubstitutions {
  const result: TextSubstitutions = { scripts: [], unparsed: [] };
  const starts: HiddenStart[] = [];
  startsIn(text, 0, text.length, false, true, starts);
  let after = 0;
  for (const start of starts) {
    if (start.at < after) continue;
    if (depth >= MAX_FRAGMENT_DEPTH) {
      result.unparsed.push(text.slice(start.at, start.at + SHOWN_CHARS));
      return result;
    }
    const parsed = parseHidden(text, text.length, start, true);
    after = parsed.end;
    if (!parsed.tree) {
      // Not one substitution: unknown, but its body is still analysed as a script.
      result.unparsed.push(text.slice(start.at, start.at + SHOWN_CHARS));
      result.scripts.push(bodyOf(text, start, parsed.end));
      continue;
    }
    const fragment = text.slice(start.at, parsed.end);
    const arithmetic =
      parsed.tree.rootNode.namedChildren[0]!.childForFieldName('argument')!.type === 'arithmetic_expansion';
    parsed.tree.delete();
    if (arithmetic) {
      const inner = substitutionsInText(fragment.slice(3, -2), depth + 1);
      result.scripts.push(...inner.scripts);
      result.unparsed.push(...inner.unparsed);
    } else result.scripts.push(start.kind === 'backtick' ? fragment.slice(1, -1) : fragment.slice(2, -1));
  }
  return result;
}
