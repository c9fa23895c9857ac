/**
 * Command-name rebinding: what makes a later command run other code than its name says. bash
 * looks a command name up as an alias (when `expand_aliases` is on), a function, a builtin, the
 * hash table, then `PATH` (bash manual §3.7.2 "Command Search and Execution"); `hash -p FILE NAME`
 * binds NAME to FILE, `enable -f LIB NAME` loads a builtin from a shared library, `enable -n NAME`
 * turns a builtin off so a program of that name runs instead, an alias or a function named like
 * a program or builtin shadows it, and `command_not_found_handle` runs for every name that is not
 * found. The analysis reports the command by its name, and rules allow names (`ls`, `git status`),
 * so a rebinding is denied (`shell:rebinding`): no rule can see what the name now runs.
 */
import { hasRecord } from './programs/index.ts';
import type { ShellNode } from './shell-parser.ts';

/** bash's builtins and reserved words (bash manual §4.1, §4.2, §3.2.5). */
const BUILTIN_NAMES = new Set(
  ': . [ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true type typeset ulimit umask unalias unset wait'.split(
    ' ',
  ),
);

/** Functions bash calls by itself (the hook for names not found, the debugger hooks). */
const HOOKS = new Set(['command_not_found_handle', 'command_not_found_handler']);

/** True when `name` is a command name the rules and the analysis know: a builtin or a program with a record. */
export function isKnownCommandName(name: string): boolean {
  return BUILTIN_NAMES.has(name) || hasRecord(name);
}

/** Why defining a function or alias named `name` rebinds a command, or undefined when it does not. */
export function shadowingReason(kind: 'function' | 'alias', name: string): string | undefined {
  if (HOOKS.has(name)) return `the ${kind} ${name} runs for every command name that is not found`;
  if (isKnownCommandName(name))
    return `the ${kind} ${name} shadows the ${BUILTIN_NAMES.has(name) ? 'builtin' : 'program'} ${name}, so a later ${name} runs the ${kind} instead`;
  return undefined;
}

/**
 * Why a builtin call rebinds a command name (`hash -p`, `enable -f`, `enable -n`, an alias
 * definition shadowing a known name), or undefined when it does not. `args` are the static values
 * of the words after the builtin (undefined where an expansion decides).
 */
export function rebindingReason(program: string, args: readonly (string | undefined)[]): string | undefined {
  const options = args.filter((a) => a?.startsWith('-'));
  if (program === 'hash' && options.some((o) => o !== undefined && /^-[a-z]*p/.test(o)))
    return 'hash -p binds a command name to another program';
  if (program === 'enable' && options.some((o) => o !== undefined && /^-[a-z]*[fn]/.test(o)))
    return options.some((o) => o?.includes('f'))
      ? 'enable -f loads a builtin from a shared library, which runs its code under a command name'
      : 'enable -n turns a builtin off, so a program of that name runs instead';
  if (program === 'alias')
    for (const a of args) {
      if (a === undefined) return 'alias defines a name built from an expansion';
      const eq = a.indexOf('=');
      if (eq > 0) {
        const why = shadowingReason('alias', a.slice(0, eq));
        if (why) return why;
      }
    }
  return undefined;
}

/** The names of the functions a script defines (`f() {…}`, `function f {…}`), at any depth. */
export function definedFunctions(root: ShellNode): string[] {
  const out: string[] = [];
  const visit = (node: ShellNode): void => {
    if (node.type === 'function_definition') {
      const name = node.childForFieldName('name')?.text;
      if (name) out.push(name);
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  return out;
}
