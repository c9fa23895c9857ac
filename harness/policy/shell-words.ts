/**
 * Shell words: what a word of a parsed command means after quote removal (bash manual §3.5.9),
 * and how a program name is normalised for rule matching. A word whose value depends on an
 * expansion (`$x`, `${x}`, `$(…)`, backticks, `$((…))`) has no static value; its command and
 * process substitutions are returned so they can be analysed as commands of their own.
 */
import type { ShellNode } from './shell-parser.ts';

/** One word of a simple command. */
export interface ShellWord {
  /** The source text as written. */
  text: string;
  /** The value after quote removal; undefined when it depends on an expansion. */
  value?: string;
  /** Command and process substitutions inside the word (their commands run too). */
  substitutions: ShellNode[];
  /** Unquoted glob (`*?[`) or brace (`{}`) characters: the shell would expand the word. */
  expands: boolean;
  /** Unquoted and unescaped throughout (plain `word`/`number` pieces only). */
  plain: boolean;
}

const SUBSTITUTIONS = new Set(['command_substitution', 'process_substitution']);
const EXPANSIONS = new Set([
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
]);

/** Command and process substitutions under `node`, outermost only (nested ones are found when the outer one is analysed). */
export function findSubstitutions(node: ShellNode, out: ShellNode[] = []): ShellNode[] {
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (SUBSTITUTIONS.has(child.type)) out.push(child);
    else findSubstitutions(child, out);
  }
  return out;
}

/** Removes backslash escapes of an unquoted word: `\x` → `x`, backslash-newline → nothing. */
export function unescapeUnquoted(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\([\s\S])/g, '$1');
}

/** Removes the escapes that are special inside double quotes: `\$`, `` \` ``, `\"`, `\\`, backslash-newline. */
export function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1');
}

/** Decodes the body of an ANSI-C quoted string `$'…'` (bash manual §3.1.2.4). */
export function decodeAnsiC(body: string): string {
  const simple: Record<string, string> = {
    a: '\x07',
    b: '\b',
    e: '\x1b',
    E: '\x1b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
    '\\': '\\',
    "'": "'",
    '"': '"',
    '?': '?',
  };
  return body.replace(
    /\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|[\s\S])/g,
    (_, esc: string) => {
      const head = esc[0]!;
      if (head === 'x' && esc.length > 1) return String.fromCodePoint(parseInt(esc.slice(1), 16));
      if ((head === 'u' || head === 'U') && esc.length > 1) {
        const code = parseInt(esc.slice(1), 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : '';
      }
      if (/^[0-7]/.test(esc)) return String.fromCodePoint(parseInt(esc, 8) & 0xff);
      if (head === 'c' && esc.length === 2) return String.fromCodePoint(esc.charCodeAt(1) & 0x1f);
      return simple[esc] ?? `\\${esc}`;
    },
  );
}

/**
 * The value `$WS` and `${WS}` stand for: the workspace, which the bash tool sets `WS` to
 * (`harness/tools/builtin/bash.ts`). A NUL cannot be in a bash word, so the mark cannot be
 * spelled by a command; `command-policy.ts` replaces it with the workspace before resolving.
 */
export const WORKSPACE_MARK = '\u0000WS';

let workspaceVariable = true;

/**
 * Whether `$WS` means the workspace in the command being analysed: not when the command assigns
 * WS itself (`WS=/etc`, `read WS`, `for WS in …`, `export WS=…`, `unset WS`). Set by
 * `shell-analysis.ts` for each command it analyses.
 */
export function setWorkspaceVariable(command: string): void {
  workspaceVariable =
    !/\bWS(\[[^\]]*\])?\+?=|(?:^|[;&|({`\n]|\$\(|\b(?:then|do|else|command|builtin)\b)\s*(read|declare|typeset|local|export|readonly|unset|mapfile|readarray|for|select|getopts|printf|let|eval)\b[^\n;|&]*\bWS\b/.test(
      command,
    );
}

interface Piece {
  value?: string;
  expands: boolean;
  plain: boolean;
}

function piece(node: ShellNode): Piece {
  switch (node.type) {
    case 'word':
    case 'number': {
      const raw = node.text;
      const unquotedSpecial = /(^|[^\\])[*?[{}]/.test(raw) || /^[*?[{}]/.test(raw);
      return { value: unescapeUnquoted(raw), expands: unquotedSpecial, plain: !raw.includes('\\') };
    }
    case 'raw_string':
      return { value: node.text.slice(1, -1), expands: false, plain: false };
    case 'ansi_c_string':
      return { value: decodeAnsiC(node.text.slice(2, -1)), expands: false, plain: false };
    case 'string':
    case 'translated_string': {
      // The value is the text between the quotes: the grammar leaves some characters (a newline, a
      // carriage return) out of every child, so the children do not spell the whole string.
      let ws = false;
      for (const child of node.namedChildren)
        if (child && child.type !== 'string_content') {
          if (!workspaceVariable || (child.text !== '$WS' && child.text !== '${WS}'))
            return { expands: false, plain: false };
          ws = true;
        }
      const open = node.text.startsWith('$"') ? 2 : 1;
      const body =
        node.text.endsWith('"') && node.text.length > open
          ? node.text.slice(open, -1)
          : node.text.slice(open);
      const value = unescapeDoubleQuoted(
        ws ? body.replace(/(?<!\\)\$(\{WS\}|WS(?![A-Za-z0-9_]))/g, WORKSPACE_MARK) : body,
      );
      return { value, expands: false, plain: false };
    }
    case 'concatenation': {
      let value = '';
      let expands = false;
      let plain = true;
      for (const child of node.namedChildren) {
        if (!child) continue;
        const p = piece(child);
        if (p.value === undefined) return { expands: false, plain: false };
        value += p.value;
        expands ||= p.expands;
        plain &&= p.plain;
      }
      // Pieces the grammar leaves unnamed inside a concatenation (rare) make it not plain.
      if (node.children.some((c) => c && !c.isNamed)) plain = false;
      return { value, expands, plain };
    }
    default:
      if (workspaceVariable && (node.text === '$WS' || node.text === '${WS}'))
        return { value: WORKSPACE_MARK, expands: false, plain: false };
      if (EXPANSIONS.has(node.type)) return { expands: false, plain: false };
      // Other leaves the grammar produces in argument position (regex, extglob, test operators): literal text.
      return node.namedChildCount === 0
        ? { value: node.text, expands: /[*?[{}]/.test(node.text), plain: false }
        : { expands: false, plain: false };
  }
}

/** Evaluates one word node. */
export function wordOf(node: ShellNode): ShellWord {
  const p = piece(node);
  const substitutions = SUBSTITUTIONS.has(node.type) ? [node] : findSubstitutions(node);
  return {
    text: node.text,
    ...(p.value !== undefined ? { value: p.value } : {}),
    substitutions,
    expands: p.expands,
    plain: p.plain,
  };
}

/** A literal word (as from unwrapping `sh -c` arguments or `xargs`), with no node behind it. */
export function literalWord(value: string): ShellWord {
  return { text: quoteWord(value), value, substitutions: [], expands: false, plain: false };
}

const SAFE = /^[A-Za-z0-9_@%+=:,./^-]+$/;

/**
 * Quotes a value for display so that parsing the display gives the same value back: safe
 * characters as they are, anything else in single quotes (`'it'\''s'`).
 */
export function quoteWord(value: string): string {
  if (SAFE.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * How a word is shown in a normalised command: plain unquoted words as written (so `*.txt` and
 * `~/x` keep their meaning), static words by value (quoted where needed), words that depend on
 * an expansion as written.
 */
export function displayWord(word: ShellWord): string {
  if (word.value === undefined || word.value.includes(WORKSPACE_MARK)) return word.text;
  if (word.plain && word.value === word.text) return word.text;
  return quoteWord(word.value);
}

/** Folders whose programs are the system's own: `/usr/bin/rm` is `rm`. */
const SYSTEM_BIN = new Set([
  '/bin',
  '/sbin',
  '/usr/bin',
  '/usr/sbin',
  '/usr/local/bin',
  '/usr/local/sbin',
  '/opt/homebrew/bin',
  '/run/current-system/sw/bin',
]);

/** A program name after normalisation. */
export interface ProgramName {
  /** The name rules match: quotes and escapes removed, an absolute path reduced to its base name. */
  name: string;
  /** Set when the name was an absolute path outside the system's program folders (`/tmp/x/ls`). */
  nonstandardPath?: string;
}

/**
 * Normalises a program name (already unquoted): an absolute path becomes its base name
 * (`/bin/rm` → `rm`); a relative path (`./ls`) stays as it is, because it is not the system's
 * program. Idempotent: normalising a normalised name gives it back.
 */
export function normaliseProgram(value: string): ProgramName {
  if (!value.startsWith('/')) return { name: value };
  const trimmed = value.replace(/\/+$/, '');
  const slash = trimmed.lastIndexOf('/');
  const dir = slash <= 0 ? '/' : trimmed.slice(0, slash).replace(/\/+/g, '/');
  const name = trimmed.slice(slash + 1) || value;
  return SYSTEM_BIN.has(dir) ? { name } : { name, nonstandardPath: value };
}
