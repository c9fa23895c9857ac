/**
 * Extracts every simple command of a parsed bash script: from lists (`&&`, `||`, `;`, `&`,
 * newlines), pipelines, subshells, brace groups, `if`/`for`/`while`/`case` bodies, function
 * bodies (analysed whether or not they are called), command and process substitutions
 * (including backticks and substitutions inside double quotes and unquoted here-documents),
 * declarations (`export X=$(…)`), bare assignments and array subscripts (`a[$(…)]=1`).
 * Redirections are collected with the command they belong to. After the walk, the sweep of
 * `shell-sweep.ts` finds the substitutions the walk did not reach. Handed cases E01–E04 (claude-code#16180, #37662, gemini-cli#2658,
 * #9181) are each one of these shapes.
 */
import type { FindingRuleId } from './rules.ts';
import { evaluationFindings } from './shell-arith.ts';
import { ambiguousBytes, parserDifferential } from './shell-bytes.ts';
import type { ShellNode } from './shell-parser.ts';
import { substitutionKey, sweepTree, type Unanalysed } from './shell-sweep.ts';
import { findSubstitutions, literalWord, wordOf, type ShellWord } from './shell-words.ts';

/** A variable assignment before a command or on its own (`PATH=/tmp ls`, `a=$(id)`). */
export interface Assignment {
  name: string;
  value?: ShellWord;
}

/** A redirection: `access` is what it does to the file named by `target`. */
export interface Redirect {
  operator: string;
  /** The file descriptor written before the operator (`2>`), when given. */
  fd?: string;
  /** The file word; absent for descriptor duplication (`2>&1`, `>&-`). */
  target?: ShellWord;
  access: 'read' | 'write';
  /** The source text of the statement the redirection belongs to. */
  via: string;
}

/** One simple command as written, before wrappers are unwrapped. */
export interface ExtractedCommand {
  /** The argument vector; `words[0]` is the program. Empty for a bare assignment. */
  words: ShellWord[];
  assignments: Assignment[];
  /** The source text of the command. */
  source: string;
}

/** Everything found in one script. */
export interface Extraction {
  commands: ExtractedCommand[];
  redirects: Redirect[];
  /** Bodies of here-documents, here-strings and text echoed into a pipe (candidates for a shell's stdin). */
  stdinTexts: string[];
  /** The grammar reported an error or a missing token somewhere. */
  syntaxError: boolean;
  /** Substitutions hidden in text the grammar left unparsed that could not be parsed on their own (`shell-sweep.ts`): the analysis asks. */
  unanalysed: Unanalysed[];
  /** Keys of the substitution nodes extracted so far in the tree being walked (bookkeeping for the sweep). */
  seen: Set<string>;
  /** Findings in fragments the sweep parsed on its own: arithmetic and indirection (`shell-arith.ts`), bytes and structures bash reads differently (`shell-bytes.ts`). */
  evaluations: { text: string; rule: FindingRuleId; reason: string }[];
  /** Called by the sweep for every fragment it parses on its own. */
  onFragment: (root: ShellNode) => void;
  /** Words after a redirection target that belong to the last command of a pipeline (by node id). */
  extraWords: Map<number, ShellWord[]>;
}

/** The text of the tree `node` belongs to, padded so that node indices point into it (the root node's own text omits leading blanks). */
function treeText(node: ShellNode): string {
  const root = node.tree.rootNode;
  return `${' '.repeat(root.startIndex)}${root.text}`;
}

const REDIRECTS = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);

/**
 * Walks a parsed script (the root node or any subtree) and extracts its simple commands, then
 * sweeps the whole tree for substitutions the walk did not reach (`shell-sweep.ts`).
 * @param source the script that was parsed; without it, the tree's text padded to its offsets
 */
export function extractCommands(root: ShellNode, source?: string): Extraction {
  const out: Extraction = {
    commands: [],
    redirects: [],
    stdinTexts: [],
    syntaxError: root.hasError,
    unanalysed: [],
    seen: new Set(),
    evaluations: [],
    extraWords: new Map(),
    onFragment: (fragment) => {
      out.evaluations.push(...evaluationFindings(fragment));
      // A fragment is parsed on its own: the bytes and structures the two readers disagree on are checked there too.
      const text = fragment.tree.rootNode.text;
      const bytes = ambiguousBytes(fragment.tree.rootNode, text);
      const structure = bytes === undefined ? parserDifferential(fragment.tree.rootNode, text) : undefined;
      if (bytes)
        out.evaluations.push({
          text,
          rule: 'shell:ambiguous-bytes',
          reason: `the substitution cannot be checked: ${bytes}`,
        });
      else if (structure)
        out.evaluations.push({
          text,
          rule: 'shell:parser-differential',
          reason: `the substitution cannot be checked: ${structure.reason}`,
        });
    },
  };
  visit(root, out);
  sweepTree(root, out, visit, source ?? treeText(root));
  return out;
}

/** Visits deferred nodes (substitutions, here-document tails) in source order, after their command was recorded. */
function visitLater(later: ShellNode[], out: Extraction): void {
  later.sort((a, b) => a.startIndex - b.startIndex);
  for (const node of later) visit(node, out);
}

function assignmentOf(node: ShellNode, later: ShellNode[]): Assignment {
  let nameNode = node.childForFieldName('name');
  // An array element (`a[$(…)]=1`, `x[i]+=1`): the subscript runs its substitutions too.
  if (nameNode?.type === 'subscript') {
    later.push(...findSubstitutions(nameNode));
    nameNode = nameNode.childForFieldName('name') ?? nameNode;
  }
  const valueNode = node.childForFieldName('value');
  const value = valueNode ? wordOf(valueNode) : undefined;
  if (value) later.push(...value.substitutions);
  return { name: nameNode?.text ?? node.text.split('=')[0] ?? '', ...(value ? { value } : {}) };
}

function redirectOf(
  node: ShellNode,
  via: string,
  out: Extraction,
  extraWords: ShellWord[],
  later: ShellNode[],
): void {
  if (node.type === 'heredoc_redirect') {
    const startNode = node.children.find((c) => c?.type === 'heredoc_start');
    const endNode = node.children.find((c) => c?.type === 'heredoc_end');
    const body = node.children.find((c) => c?.type === 'heredoc_body');
    const quoted = /['"\\]/.test(startNode?.text ?? '');
    // The body as written, from the line after the start word to the end word: the grammar
    // splits lines that begin with a backslash off the body, so its body node can be short.
    const source = treeText(node);
    const from = startNode ? source.indexOf('\n', startNode.endIndex) + 1 : -1;
    if (from > 0 && endNode && endNode.startIndex >= from)
      out.stdinTexts.push(source.slice(from, endNode.startIndex));
    else if (body) out.stdinTexts.push(body.text);
    if (body && !quoted) later.push(...findSubstitutions(body));
    // A here-document can carry the rest of a pipeline or list (`cat <<EOF | sh`): visit it.
    for (const child of node.namedChildren)
      if (
        child &&
        child.type !== 'heredoc_body' &&
        child.type !== 'heredoc_start' &&
        child.type !== 'heredoc_end'
      )
        later.push(child);
    return;
  }
  if (node.type === 'herestring_redirect') {
    const wordNode = node.namedChildren.find((c) => c !== null);
    if (wordNode) {
      const word = wordOf(wordNode);
      later.push(...word.substitutions);
      if (word.value !== undefined) out.stdinTexts.push(word.value);
    }
    return;
  }
  const operator = node.children.find((c) => c && !c.isNamed)?.text ?? '>';
  const fd = node.childForFieldName('descriptor')?.text;
  const destinations = node.children.filter(
    (c, i) => c !== null && node.fieldNameForChild(i) === 'destination',
  ) as ShellNode[];
  const [first, ...rest] = destinations;
  // The grammar attaches words after the target (`echo > f x`) as further destinations; they are arguments.
  for (const extra of rest) extraWords.push(wordOf(extra));
  if (!first) return;
  if (first.type === 'process_substitution') {
    later.push(first);
    return;
  }
  const target = wordOf(first);
  later.push(...target.substitutions);
  const duplication =
    (operator === '>&' || operator === '<&') && (target.value === '-' || /^\d+-?$/.test(target.value ?? ''));
  if (duplication) return;
  out.redirects.push({
    operator,
    ...(fd ? { fd } : {}),
    target,
    access: operator === '<' ? 'read' : 'write',
    via,
  });
}

function commandOf(
  node: ShellNode,
  out: Extraction,
  extraWords: ShellWord[] = [],
  later: ShellNode[] = [],
): void {
  const assignments: Assignment[] = [];
  const words: ShellWord[] = [];
  for (let i = 0; i < node.childCount; i += 1) {
    const child = node.child(i);
    if (!child) continue;
    if (child.type === 'variable_assignment') assignments.push(assignmentOf(child, later));
    else if (child.type === 'command_name') {
      const inner = child.namedChildren.find((c) => c !== null) ?? child;
      words.push(wordOf(inner));
    } else if (REDIRECTS.has(child.type)) redirectOf(child, node.text, out, extraWords, later);
    else if (child.isNamed && child.type !== 'comment') words.push(wordOf(child));
    // Arguments the grammar keeps as anonymous tokens (a lone `$`, `==`, `=~`) are literal words for bash.
    else if (!child.isNamed && node.fieldNameForChild(i) === 'argument')
      words.push({ text: child.text, value: child.text, substitutions: [], expands: false, plain: true });
  }
  words.push(...extraWords, ...(out.extraWords.get(node.id) ?? []));
  out.commands.push({ words, assignments, source: node.text });
  for (const word of words) later.push(...word.substitutions);
  visitLater(later, out);
}

function declarationOf(node: ShellNode, out: Extraction): void {
  const keyword = node.children.find((c) => c && !c.isNamed)?.text ?? node.type;
  const words: ShellWord[] = [literalWord(keyword)];
  const assignments: Assignment[] = [];
  const later: ShellNode[] = [];
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'variable_assignment') {
      const assignment = assignmentOf(child, later);
      assignments.push(assignment);
      words.push({
        text: child.text,
        ...(assignment.value?.value !== undefined || !assignment.value ? { value: child.text } : {}),
        substitutions: [],
        expands: false,
        plain: false,
      });
    } else if (REDIRECTS.has(child.type)) redirectOf(child, node.text, out, [], later);
    else {
      const word = wordOf(child);
      later.push(...word.substitutions);
      words.push(word);
    }
  }
  out.commands.push({ words, assignments, source: node.text });
  visitLater(later, out);
}

function visit(node: ShellNode, out: Extraction): void {
  if (node.type === 'ERROR' || node.isMissing) out.syntaxError = true;
  if (node.type === 'command_substitution' || node.type === 'process_substitution')
    out.seen.add(substitutionKey(node));
  switch (node.type) {
    case 'comment':
      return;
    case 'command':
      commandOf(node, out);
      return;
    case 'declaration_command':
    case 'unset_command':
      declarationOf(node, out);
      return;
    case 'variable_assignment':
    case 'variable_assignments': {
      const later: ShellNode[] = [];
      const nodes =
        node.type === 'variable_assignment'
          ? [node]
          : node.namedChildren.filter((c): c is ShellNode => c?.type === 'variable_assignment');
      out.commands.push({
        words: [],
        assignments: nodes.map((c) => assignmentOf(c, later)),
        source: node.text,
      });
      visitLater(later, out);
      return;
    }
    case 'file_redirect':
    case 'heredoc_redirect':
    case 'herestring_redirect': {
      // A redirection outside a command (`$(< /etc/shadow)`, `f() { …; } > out`): commands and statements take theirs themselves.
      const later: ShellNode[] = [];
      redirectOf(node, node.parent?.text ?? node.text, out, [], later);
      visitLater(later, out);
      return;
    }
    case 'redirected_statement': {
      const body = node.childForFieldName('body');
      const extraWords: ShellWord[] = [];
      const later: ShellNode[] = [];
      for (const child of node.namedChildren)
        if (child && REDIRECTS.has(child.type)) redirectOf(child, node.text, out, extraWords, later);
      if (body?.type === 'command') commandOf(body, out, extraWords, later);
      else {
        // `a | b > f x`, `! b > f x`: bash gives the words after the target to the last simple command.
        const last = body ? lastCommand(body) : undefined;
        if (last && extraWords.length > 0) out.extraWords.set(last.id, extraWords);
        if (body) visit(body, out);
        visitLater(later, out);
      }
      return;
    }
    case 'test_command':
      // `[ … ]` is the `[` builtin for bash, a command of its own (`[[ … ]]` is a keyword).
      if (node.child(0)?.type === '[') {
        const words = testWords(node);
        out.commands.push({ words, assignments: [], source: node.text });
        const later: ShellNode[] = [];
        for (const word of words) later.push(...word.substitutions);
        visitLater(later, out);
        return;
      }
      for (const child of node.namedChildren) if (child) visit(child, out);
      return;
    case 'pipeline': {
      // Text echoed into the next stage is a candidate script for a shell reading stdin (`echo "rm x" | sh`).
      const stages = node.namedChildren.filter((c): c is ShellNode => c !== null);
      for (const stage of stages.slice(0, -1)) {
        if (stage.type !== 'command') continue;
        const words = stage.namedChildren
          .filter((c): c is ShellNode => c !== null && c.type !== 'variable_assignment')
          .map((c) => wordOf(c.type === 'command_name' ? (c.namedChildren[0] ?? c) : c));
        const program = words[0]?.value;
        if (
          (program === 'echo' || program === 'printf') &&
          words.slice(1).every((w) => w.value !== undefined)
        )
          out.stdinTexts.push(
            words
              .slice(1)
              .filter((w) => !/^-[neE]+$/.test(w.value!))
              .map((w) => w.value)
              .join(' '),
          );
      }
      for (const stage of stages) visit(stage, out);
      return;
    }
    default:
      for (const child of node.namedChildren) if (child) visit(child, out);
  }
}

const TEST_EXPRESSIONS = new Set([
  'unary_expression',
  'binary_expression',
  'parenthesized_expression',
  'negated_expression',
]);

/** The words bash passes to `[`: every operand and operator of the test, in order, `[` and `]` included. */
function testWords(node: ShellNode): ShellWord[] {
  const words: ShellWord[] = [];
  const walk = (n: ShellNode) => {
    for (const child of n.children) {
      if (!child) continue;
      if (TEST_EXPRESSIONS.has(child.type)) walk(child);
      else if (!child.isNamed || child.type === 'test_operator')
        words.push({ text: child.text, value: child.text, substitutions: [], expands: false, plain: true });
      else words.push(wordOf(child));
    }
  };
  walk(node);
  return words;
}

/** The last simple command of a pipeline or negated command (the one a trailing redirection belongs to). */
function lastCommand(node: ShellNode): ShellNode | undefined {
  if (node.type === 'command') return node;
  if (node.type === 'pipeline' || node.type === 'negated_command') {
    const last = node.namedChildren.filter((c): c is ShellNode => c !== null).at(-1);
    return last ? lastCommand(last) : undefined;
  }
  return undefined;
}
