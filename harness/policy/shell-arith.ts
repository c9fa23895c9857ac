/**
 * Arithmetic and indirect evaluation: bash evaluates a value again when it reaches an arithmetic
 * context or is used as a variable name, and a value such as `a[$(cmd)]` runs `cmd` then (bash
 * manual §6.5 "Shell Arithmetic": "the value of a variable is evaluated as an arithmetic
 * expression when it is referenced"; §6.7 "Arrays": subscripts are arithmetic; §3.5.3 `${!x}`;
 * `declare -n`). The value may arrive from anywhere at run time (a `for` list, `$_`, a command
 * substitution, a file), so no static check of assignments is enough: any arithmetic or
 * indirection context whose operand is not a literal number (or a literal name) asks, in every
 * mode. Contexts: `$((…))`, `$[…]`, `((…))`, `for ((…))`, `[[ a -eq b ]]` and the other
 * arithmetic test operators, `[[ -v name ]]`, array subscripts (`a[i]=`, `${a[i]}`,
 * `${#a[i]}`), substring offsets (`${x:i:n}`), `${!x}`; and the builtins `let`, `declare -i`,
 * `declare -n`, `printf -v`, `read`, `test -v`, `unset`, `declare NAME=` with a computed name
 * (checked by {@link builtinEvaluation}). Which builtins evaluate was established by experiment
 * (`shell-arith.test.ts`): `[ "$x" -eq 1 ]`, `shift`, `exit`, `printf %d` do not.
 */
import type { ShellNode } from './shell-parser.ts';
import type { ShellWord } from './shell-words.ts';

/** An arithmetic or indirection context with a non-literal operand. */
export interface EvaluationFinding {
  text: string;
  rule: 'shell:arithmetic' | 'shell:indirection';
  reason: string;
}

const NUMBER = /0[xX][0-9a-fA-F]+|[0-9]+#[0-9A-Za-z@_]+|[0-9]+/g;

/** True when an arithmetic expression is made of number literals and operators only (no names, no expansions). */
export function isArithmeticLiteral(text: string): boolean {
  return !/[A-Za-z_$`\\'"{}[\]]/.test(text.replace(NUMBER, '0'));
}

/** True when `text` is a variable name, optionally with a literal subscript (`a`, `a[0]`, `a[@]`). */
export function isLiteralName(text: string): boolean {
  const m = /^[A-Za-z_][A-Za-z0-9_]*(?:\[([^\]]*)\])?$/.exec(text);
  if (!m) return false;
  return m[1] === undefined || m[1] === '@' || m[1] === '*' || isArithmeticLiteral(m[1]);
}

/** A quick test: text without these holds no arithmetic or indirection context the tree walk looks for. */
const MAY_EVALUATE = /\(\(|\$\[|\[|\$\{/;

const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

function arithmetic(node: ShellNode, what: string, out: EvaluationFinding[]): void {
  out.push({
    text: node.text,
    rule: 'shell:arithmetic',
    reason: `${what} ${JSON.stringify(node.text)} is evaluated as arithmetic with an operand that is not a literal number; bash evaluates a variable's value again there, and a value like a[$(cmd)] runs cmd`,
  });
}

/** The text between the first and the last child (the delimiters of `$((…))`, `((…))`, `[…]`). */
function inner(node: ShellNode): string {
  const first = node.child(0);
  const last = node.child(node.childCount - 1);
  if (!first || !last || node.childCount < 2) return node.text;
  return between(node, first, last);
}

/** The text of `node` between two of its children. */
function between(node: ShellNode, from: ShellNode, to: ShellNode): string {
  return node.text.slice(from.endIndex - node.startIndex, to.startIndex - node.startIndex);
}

function visit(node: ShellNode, out: EvaluationFinding[]): void {
  switch (node.type) {
    case 'arithmetic_expansion':
      if (!isArithmeticLiteral(inner(node))) arithmetic(node, 'the arithmetic expansion', out);
      return;
    case 'compound_statement':
      if (node.child(0)?.type === '((' && !isArithmeticLiteral(inner(node))) {
        arithmetic(node, 'the arithmetic command', out);
        return;
      }
      break;
    case 'c_style_for_statement': {
      const open = node.children.findIndex((c) => c?.type === '((');
      const close = node.children.findIndex((c) => c?.type === '))');
      if (open >= 0 && close > open) {
        const text = between(node, node.child(open)!, node.child(close)!);
        if (!isArithmeticLiteral(text.replace(/;/g, ','))) arithmetic(node, 'the for (( … )) header', out);
      }
      break;
    }
    case 'binary_expression': {
      const operator = node.children.find((c) => c?.type === 'test_operator')?.text;
      if (operator !== undefined && ARITHMETIC_TESTS.has(operator)) {
        const operands = node.namedChildren.filter((c) => c !== null && c.type !== 'test_operator');
        if (operands.some((c) => !isArithmeticLiteral(c!.text)))
          arithmetic(node, `the [[ ${operator} ]] test`, out);
      }
      break;
    }
    case 'unary_expression': {
      const operator = node.children.find((c) => c?.type === 'test_operator')?.text;
      const operand = node.namedChildren.find((c) => c !== null && c.type !== 'test_operator');
      if (operator === '-v' && operand && !isLiteralName(unquote(operand.text)))
        out.push({
          text: node.text,
          rule: 'shell:indirection',
          reason: `[[ -v ${operand.text} ]] evaluates a computed name (or a subscript that is not a literal), which runs the substitutions in it`,
        });
      break;
    }
    case 'subscript': {
      const open = node.children.find((c) => c?.type === '[');
      const close = [...node.children].reverse().find((c) => c?.type === ']');
      const text = open && close ? between(node, open, close) : inner(node);
      if (text !== '@' && text !== '*' && !isArithmeticLiteral(unquote(text)))
        arithmetic(node, 'the array subscript', out);
      break;
    }
    case 'expansion':
      expansion(node, out);
      break;
    case 'heredoc_body':
      heredoc(node, out);
      break;
    default:
      break;
  }
  for (const child of node.namedChildren) if (child) visit(child, out);
}

/** `${!x}` (not `${!x*}`, `${!x@}`, `${!a[@]}`) and `${x:off:len}`. */
function expansion(node: ShellNode, out: EvaluationFinding[]): void {
  const children = node.children.filter((c): c is ShellNode => c !== null);
  const bang = children.findIndex((c) => c.type === '!');
  if (bang >= 0) {
    const name = children[bang + 1];
    const after = children[bang + 2];
    const listing =
      after?.type === '*' ||
      after?.type === '@' ||
      (name?.type === 'subscript' && /\[[@*]\]$/.test(name.text));
    if (name && !listing)
      out.push({
        text: node.text,
        rule: 'shell:indirection',
        reason: `${node.text} uses the value of a variable as the name of another; a value like a[$(cmd)] runs cmd`,
      });
  }
  const colon = children.findIndex((c) => c.type === ':');
  if (colon >= 0) {
    const operands = children.slice(colon + 1).filter((c) => c.type !== ':' && c.type !== '}');
    const text = operands.map((c) => c.text).join(' ');
    if (!isArithmeticLiteral(text)) arithmetic(node, 'the substring offset of', out);
  }
}

/** An unquoted here-document expands `$((…))` and `$[…]` in its body (the grammar does not always parse them there). */
function heredoc(node: ShellNode, out: EvaluationFinding[]): void {
  const start = node.parent?.children.find((c) => c?.type === 'heredoc_start');
  if (/['"\\]/.test(start?.text ?? '')) return;
  for (const m of node.text.matchAll(/\$\(\(([\s\S]*?)\)\)|\$\[([^\]]*)\]/g))
    if (!isArithmeticLiteral(m[1] ?? m[2] ?? ''))
      out.push({
        text: m[0],
        rule: 'shell:arithmetic',
        reason: `the here-document expands ${m[0]}, arithmetic with an operand that is not a literal number; bash evaluates a variable's value again there, and a value like a[$(cmd)] runs cmd`,
      });
}

function unquote(text: string): string {
  return /^(['"]).*\1$/s.test(text) ? text.slice(1, -1) : text;
}

/**
 * The arithmetic and indirection contexts with non-literal operands in a parsed script (any
 * subtree). Cheap when the text has none of `((`, `$[`, `[`, `${`.
 */
export function evaluationFindings(root: ShellNode): EvaluationFinding[] {
  const out: EvaluationFinding[] = [];
  if (!MAY_EVALUATE.test(root.text)) return out;
  visit(root, out);
  return out;
}

/** Short options in a cluster (`-ai` → `a`, `i`), until the first word that is not an option. */
function optionLetters(words: readonly ShellWord[]): Set<string> {
  const letters = new Set<string>();
  for (const w of words) {
    const v = w.value;
    if (v === undefined || !/^[-+][A-Za-z]+$/.test(v)) continue;
    if (v.startsWith('-')) for (const l of v.slice(1)) letters.add(l);
  }
  return letters;
}

/**
 * Arithmetic and indirection in a builtin's operands (`let`, `declare -i`/`-n`, `printf -v`,
 * `read`, `test -v`, `unset`, a computed name in `declare`/`export`/`local`/`readonly`), given
 * the normalised program and its arguments (the words after it). `text` is the command shown.
 */
export function builtinEvaluation(
  program: string,
  args: readonly ShellWord[],
  text: string,
): EvaluationFinding[] {
  const out: EvaluationFinding[] = [];
  const name = (word: ShellWord | undefined, what: string) => {
    if (!word) return;
    if (word.value !== undefined && isLiteralName(word.value)) return;
    out.push({
      text,
      rule: 'shell:indirection',
      reason: `${what} ${word.text} is not a literal variable name (or has a subscript that is not a literal number); bash evaluates it, and a name like a[$(cmd)] runs cmd`,
    });
  };
  switch (program) {
    case 'let':
      for (const arg of args)
        if (arg.value === undefined || !isArithmeticLiteral(arg.value))
          out.push({
            text,
            rule: 'shell:arithmetic',
            reason: `let evaluates ${arg.text} as arithmetic with an operand that is not a literal number; a variable's value is evaluated again, and a[$(cmd)] in it runs cmd`,
          });
      return out;
    case 'declare':
    case 'typeset':
    case 'local':
    case 'export':
    case 'readonly': {
      const letters = optionLetters(args);
      if (letters.has('i'))
        out.push({
          text,
          rule: 'shell:arithmetic',
          reason: `${program} -i makes every assignment to the variable an arithmetic evaluation, which runs a[$(cmd)] in a value`,
        });
      for (const arg of args) {
        const v = arg.value;
        if (v !== undefined && /^[-+][A-Za-z]+$/.test(v)) continue;
        if (v === undefined) {
          name(arg, `the ${program} operand`);
          continue;
        }
        const eq = v.indexOf('=');
        const target = eq >= 0 ? v.slice(0, eq).replace(/\+$/, '') : v;
        if (!isLiteralName(target)) name(arg, `the ${program} operand`);
        else if (letters.has('n') && eq >= 0 && !isLiteralName(v.slice(eq + 1)))
          out.push({
            text,
            rule: 'shell:indirection',
            reason: `${program} -n makes ${target} a reference to the name ${v.slice(eq + 1)}, which is not a literal; a name like a[$(cmd)] runs cmd`,
          });
      }
      return out;
    }
    case 'printf': {
      const at = args.findIndex((a) => a.value === '-v' || (a.value?.startsWith('-v') ?? false));
      if (at >= 0) {
        const v = args[at]!.value!;
        name(v === '-v' ? args[at + 1] : { ...args[at]!, text: v.slice(2), value: v.slice(2) }, 'printf -v');
      }
      return out;
    }
    case 'read': {
      const withValue = new Set(['a', 'd', 'i', 'n', 'N', 'p', 't', 'u']);
      let i = 0;
      while (i < args.length && args[i]!.value !== undefined && /^-[A-Za-z]+$/.test(args[i]!.value!)) {
        const cluster = args[i]!.value!.slice(1);
        const last = cluster[cluster.length - 1]!;
        if (cluster.includes('a')) name(args[i + 1], 'read -a');
        i += withValue.has(last) ? 2 : 1;
      }
      if (args[i]?.value === '--') i += 1;
      for (const arg of args.slice(i)) name(arg, 'the read target');
      return out;
    }
    case 'test':
    case '[':
      args.forEach((arg, i) => {
        if (arg.value === '-v') name(args[i + 1], 'test -v');
      });
      return out;
    case 'unset':
      for (const arg of args)
        if (!(arg.value !== undefined && /^-[fvn]+$/.test(arg.value))) name(arg, 'the unset operand');
      return out;
    default:
      return out;
  }
}
