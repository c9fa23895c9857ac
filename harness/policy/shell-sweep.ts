/**
 * The safety net of the command extraction: after the walk of `shell-extract.ts`, every node of
 * the syntax tree is visited once more, looking for commands the walk did not reach.
 *
 * - A `command_substitution` or `process_substitution` node the walk did not visit (an array
 *   subscript `a[$(…)]=1`, a node type the walk does not know) is extracted now.
 * - Text the grammar leaves unparsed (the operand of `${x#…}`, `${x%…}`, `${x^^…}`, `${x,…}`,
 *   backticks in `${x:+…}` and in here-document bodies, single quotes inside a double-quoted
 *   `${x:-'…'}`, which bash does not treat as quotes) is searched for `` `…` ``, `$(…)`,
 *   `<(…)` and `>(…)`; each one found is parsed on its own and its commands extracted.
 * - Text that bash evaluates a second time as an arithmetic expression or a subscript (array
 *   subscripts, `(( ))`, `$(( ))`, `[[ ]]` operands) is searched even inside quotes and after
 *   backslashes: bash expands `$(…)` in `a['$(…)']=1` and `[[ 'a[$(…)]' -eq 1 ]]`.
 *
 * A substitution that cannot be parsed on its own is recorded in `unanalysed`, and the analysis
 * asks for it (`shell:unanalysed-substitution`): a command that runs is never allowed unseen.
 * Bash semantics followed: the bash manual §3.5.3 (the word of a parameter expansion undergoes
 * command substitution), §3.6.6 (unquoted here-documents), §3.5.6 (process substitution is not
 * performed inside double quotes or here-documents, but is inside `${…}`), §6.5 and §6.7
 * (arithmetic evaluation and array subscripts expand their operands again). Where a hidden
 * substitution starts and ends, and how it is parsed on its own, is `shell-hidden.ts`.
 */
import {
  bodyOf,
  type HiddenStart,
  MAX_FRAGMENT_DEPTH,
  parseHidden,
  SHOWN_CHARS,
  startsIn,
  SUBSTITUTIONS,
} from './shell-hidden.ts';
import { parseShell, type ShellNode } from './shell-parser.ts';
import { decodeAnsiC } from './shell-words.ts';

/** What the sweep needs of an extraction: the visited substitutions and where to record failures. */
export interface SweepTarget {
  /** Keys ({@link substitutionKey}) of the substitution nodes already extracted in the tree being swept. */
  seen: Set<string>;
  /** Substitutions that could not be analysed: their text and why. */
  unanalysed: Unanalysed[];
  /** Called with the root of every fragment parsed on its own (arithmetic checks). */
  onFragment?: (root: ShellNode) => void;
}

/** A substitution the analysis could not see into. */
export interface Unanalysed {
  text: string;
  reason: string;
}

const UNPARSED =
  'a command substitution hidden in text the parser left unparsed could not be parsed, so what it runs is unknown';

/** Extracts the commands of one substitution node (`shell-extract.ts` `visit`). */
export type VisitNode<T extends SweepTarget> = (node: ShellNode, out: T) => void;

/** Nodes whose text bash evaluates again (arithmetic, subscripts, `[[ ]]`): quotes and escapes do not protect it. */
const REEVALUATED = new Set(['subscript', 'arithmetic_expansion', 'test_command', 'c_style_for_statement']);
const TEXT_NODES = new Set(['raw_string', 'string', 'string_content', 'word', 'translated_string']);
/** Text without any of these has no substitution, hidden or not (`$'\x24(…)'` spells `$(` with an escape). */
const MAY_HIDE = /`|[$<>]\(|@P|\$'/;
const MAY_HIDE_ALL = new RegExp(MAY_HIDE.source, 'g');

/** The key of a substitution node within its tree. */
export function substitutionKey(node: ShellNode): string {
  return `${node.startIndex}:${node.endIndex}:${node.type}`;
}

interface Context {
  /** Inside `${…}`: single quotes under double quotes are literal there, and `<(…)` is expanded. */
  expansion: boolean;
  /** Inside double quotes or a here-document body (and not in a `${…}` within it): `<(…)` is literal. */
  quoted: boolean;
  /** Inside text bash evaluates again: quotes and backslashes do not hide substitutions. */
  reevaluated: boolean;
  /** Fragment nesting. */
  depth: number;
  /** The text of the tree being swept (node indices point into it). */
  source: string;
  /** Hidden substitutions of this source extracted already (shared by all its nodes). */
  spans: Spans;
  /** Where {@link MAY_HIDE} matches in the source, ascending: a subtree without one hides nothing. */
  markers: number[];
}

/** The positions where {@link MAY_HIDE} matches in `source`. */
function markersOf(source: string): number[] {
  const out: number[] = [];
  for (const m of source.matchAll(MAY_HIDE_ALL)) out.push(m.index);
  return out;
}

/** True when a marker lies in `[from, to)`. */
function marked(markers: readonly number[], from: number, to: number): boolean {
  let lo = 0;
  let hi = markers.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (markers[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < markers.length && markers[lo]! < to;
}

/** Ranges `[from, to)` of a source. */
type Spans = [number, number][];

/** Walks a fragment's tree (its own source, its own visited set and spans). */
function walkFragment<T extends SweepTarget>(
  node: ShellNode,
  source: string,
  out: T,
  visit: VisitNode<T>,
  depth: number,
  visitRoot: boolean,
): void {
  const saved = out.seen;
  out.seen = new Set();
  try {
    out.onFragment?.(node);
    if (visitRoot) visit(node, out);
    walk(node, out, visit, {
      expansion: false,
      quoted: false,
      reevaluated: false,
      depth,
      source,
      spans: [],
      markers: markersOf(source),
    });
  } finally {
    out.seen = saved;
  }
}

/**
 * Parses and extracts each hidden substitution of `starts` (positions in `source`, ending before
 * `limit`) that is not inside one extracted already (`spans`, shared by the nodes of one source).
 * One that does not parse as a whole is recorded as unanalysed (ask) and its body is still
 * parsed as a script, so the commands in it are decided too (the grammar cannot parse a `}`
 * inside backticks inside `${…}`, which bash can).
 */
function extractStarts<T extends SweepTarget>(
  source: string,
  starts: readonly HiddenStart[],
  limit: number,
  ignoreEscapes: boolean,
  out: T,
  visit: VisitNode<T>,
  depth: number,
  spans: Spans,
): void {
  for (const start of starts) {
    if (spans.some(([from, to]) => start.at >= from && start.at < to)) continue;
    if (depth >= MAX_FRAGMENT_DEPTH) {
      out.unanalysed.push({
        text: source.slice(start.at, Math.min(limit, start.at + SHOWN_CHARS)),
        reason: `substitutions nested more than ${MAX_FRAGMENT_DEPTH} levels deep in unparsed text are not analysed`,
      });
      return;
    }
    const parsed = parseHidden(source, limit, start, ignoreEscapes);
    spans.push([start.at, parsed.end]);
    if (parsed.tree) {
      try {
        const argument = parsed.tree.rootNode.namedChildren[0]!.childForFieldName('argument')!;
        walkFragment(argument, `: ${source.slice(start.at, parsed.end)}`, out, visit, depth + 1, false);
      } finally {
        parsed.tree.delete();
      }
      continue;
    }
    out.unanalysed.push({
      text: source.slice(start.at, Math.min(limit, start.at + SHOWN_CHARS)),
      reason: UNPARSED,
    });
    const body = bodyOf(source, start, parsed.end);
    const tree = parseShell(body);
    try {
      walkFragment(tree.rootNode, body, out, visit, depth + 1, true);
    } finally {
      tree.delete();
    }
  }
}

/** Searches the text of `node` not covered by its `children` (a leaf's whole text, the gaps of a here-document body) and extracts what it hides. */
function sweepText<T extends SweepTarget>(
  node: ShellNode,
  children: readonly (ShellNode | null)[],
  out: T,
  visit: VisitNode<T>,
  context: Context,
): void {
  const { source } = context;
  if (node.type === 'ansi_c_string') {
    // Only reached where the text is evaluated again: search the decoded value (`a[$'\x24(…)']=1`).
    const value = decodeAnsiC(node.text.slice(2, -1));
    const starts: HiddenStart[] = [];
    startsIn(value, 0, value.length, false, true, starts);
    extractStarts(value, starts, value.length, true, out, visit, context.depth, []);
    return;
  }
  const ignoreEscapes = context.reevaluated && TEXT_NODES.has(node.type);
  const starts: HiddenStart[] = [];
  let from = node.startIndex;
  const processSubstitution = context.expansion || !context.quoted;
  for (const child of children) {
    if (!child) continue;
    if (child.startIndex > from)
      startsIn(source, from, child.startIndex, processSubstitution, ignoreEscapes, starts);
    from = Math.max(from, child.endIndex);
  }
  if (node.endIndex > from) startsIn(source, from, node.endIndex, processSubstitution, ignoreEscapes, starts);
  // A hidden substitution may end beyond the node: the grammar splits `${x#$(a) b)}` over two leaves and ends `${…}` at a `}` inside backticks.
  extractStarts(source, starts, source.length, ignoreEscapes, out, visit, context.depth, context.spans);
}

function quotedHeredoc(node: ShellNode): boolean {
  const start = node.children.find((c) => c?.type === 'heredoc_start');
  return /['"\\]/.test(start?.text ?? '');
}

function walk<T extends SweepTarget>(node: ShellNode, out: T, visit: VisitNode<T>, context: Context): void {
  // Most of a tree holds no marker: skip it without reading its children (reading nodes out of the wasm parser is what costs).
  if (!marked(context.markers, node.startIndex, node.endIndex)) return;
  switch (node.type) {
    case 'comment':
      return;
    case 'ansi_c_string':
      // Literal, except in text evaluated again (`a[$'\x24(…)']=1`).
      if (!context.reevaluated) return;
      break;
    case 'raw_string':
      // Literal, except inside `"${x:-'…'}"` (bash does not treat the quotes as quotes there) and in text evaluated again.
      if (!context.expansion && !context.reevaluated) return;
      break;
    case 'heredoc_body':
      if (node.parent?.type === 'heredoc_redirect' && quotedHeredoc(node.parent)) return;
      break;
    default:
      break;
  }
  if (SUBSTITUTIONS.has(node.type) && !out.seen.has(substitutionKey(node))) visit(node, out);
  // `${x@P}` expands the value of x as a prompt string, which runs the substitutions in it: unknowable here.
  if (
    node.type === 'expansion' &&
    node.children.some((c, i) => c?.type === '@' && node.child(i + 1)?.type === 'P')
  )
    out.unanalysed.push({
      text: node.text,
      reason: `${node.text} expands a variable's value as a prompt string, which runs the command substitutions in it`,
    });
  let own = context;
  if (SUBSTITUTIONS.has(node.type)) own = { ...context, expansion: false, quoted: false, reevaluated: false };
  else if (node.type === 'expansion') own = { ...context, expansion: true };
  else if (node.type === 'string' || node.type === 'translated_string' || node.type === 'heredoc_body')
    own = { ...context, expansion: false, quoted: true };
  if (REEVALUATED.has(node.type) || (node.type === 'compound_statement' && node.child(0)?.type === '(('))
    own = { ...own, reevaluated: true };
  const children = node.children;
  if (node.isNamed) sweepText(node, children, out, visit, own);
  for (const child of children) if (child) walk(child, out, visit, own);
}

/**
 * Sweeps the tree under `root` after extraction: extracts every substitution the walk did not
 * visit and every substitution hidden in unparsed text, and records in `out.unanalysed` what
 * could not be parsed. `source` is the parsed script (node indices point into it). Fragments
 * are parsed with the same parser (which must be loaded).
 */
export function sweepTree<T extends SweepTarget>(
  root: ShellNode,
  out: T,
  visit: VisitNode<T>,
  source: string,
): void {
  // Nothing can hide without one of these: most commands skip the walk.
  if (!MAY_HIDE.test(source)) return;
  walk(root, out, visit, {
    expansion: false,
    quoted: false,
    reevaluated: false,
    depth: 0,
    source,
    spans: [],
    markers: markersOf(source),
  });
}
