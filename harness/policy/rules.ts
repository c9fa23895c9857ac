/**
 * The catalogue of rule ids: every part of a policy decision, and so every verdict reason, names
 * one of these. Fixed ids are listed with what they mean (`docs/policy.md` shows the same table);
 * parameterised ids name the configuration entry that matched: `bash:<pattern>` (a bash rule),
 * `paths:<access>:<glob>` (a path rule), `sensitive:<glob>` (a sensitive path),
 * `effects:<class>` (the default for an effect class).
 */

/** Fixed rule ids and what each means. */
export const RULES = {
  'workspace:outside': 'a path resolves outside the workspace: always denied, no approval overrides it',
  'mode:plan': 'plan mode is read-only: anything that is not a read is denied',
  'bash:default': 'no bash rule matches the simple command: ask',
  'effects:read': 'the default for a read no rule decides',
  'effects:write': 'the default for a write no rule decides',
  'effects:irreversible': 'the default for an irreversible call (network, deletes) no rule decides',
  'effects:harness-state':
    'a write that changes only the harness’s own state (todos, notes) is decided like a read',
  'taint:untrusted-content':
    'untrusted content entered the context: irreversible, network-reaching and code-running calls (code the repository contains or configures, inline interpreter programs, commands an option or a variable names, loader and start-up variables), and writes to sensitive paths (code planted to run later: a git hook, a CI workflow, a package script, a test configuration), need a human (or are denied)',
  'scope:tools': 'the tool is not among those this agent (a subagent) may use',
  'analysis:unparseable': 'the command does not parse as bash, so its parts cannot all be known',
  'analysis:too-long': 'the command is too long to analyse',
  'analysis:too-deep': 'wrappers or scripts nest too deeply to analyse',
  'shell:ambiguous-bytes':
    'the command holds characters bash and the parser read differently (carriage return, vertical tab, form feed, NUL and every other control character but tab and newline, a backslash before a blank)',
  'shell:parser-differential':
    'the parser gives the command a structure bash does not (backticks separated by a blank, a here-document end line holding more than its delimiter)',
  'shell:unanalysed-substitution':
    'a command substitution hidden in text the parser left unparsed could not be analysed',
  'shell:arithmetic':
    'an arithmetic context (`$((…))`, `((…))`, `[[ … -eq … ]]`, `let`, a subscript, a substring offset) with an operand that is not a literal number: bash evaluates the value again, and `a[$(cmd)]` in it runs cmd',
  'shell:indirection':
    'an indirection (`${!x}`, `declare -n`, `printf -v`, `read` or `declare` into a computed name, `test -v`) whose name is not a literal: a name with a subscript runs the substitution in it',
  'shell:rebinding':
    'the command rebinds a command name (hash -p, enable -f or -n, an alias or a function named like a program or builtin, command_not_found_handle), so a later command of that name runs other code than it says: denied',
  'shell:glob-option':
    'a glob or brace expansion yields words that start with `-`, which the program reads as options (a file named `--ext-diff` picked up by `*`): they are decided as written out, and the call asks',
  'program:dynamic': 'the program (or the command a wrapper runs) is built from an expansion',
  'program:eval': 'eval runs a string as a command',
  'program:source': 'source runs the commands of a file',
  'program:path': 'the program is run by a path outside the system’s program folders',
  'program:runs-command':
    'an option makes the program run a command configured elsewhere or read from a file',
  'path:dynamic': 'a file target depends on an expansion, so it cannot be checked before the command runs',
  'path:cwd-changed': 'the command changes directory, so its relative file targets cannot be resolved',
  'path:hard-link':
    'the file has other hard links: a write would change them too, and they may be outside the workspace',
  'path:tree-too-large': 'a recursive read or write walks more files than are checked one by one',
  'path:unresolvable': 'a path could not be resolved (a racing link, a permission error): denied',
  'env:dangerous-variable': 'setting the variable changes what later commands run or load',
  'git:config-override': 'git -c, --config-env and --exec-path can make git run other programs',
  'git:unguarded':
    'git run by a path may bypass the harness’s git guard, so the programs the repository configures may run',
  'exfil:secret-to-network':
    'secrets (credentials, the environment, a secrets-shaped file) are read by a command that also reaches the network: a hard deny',
} as const;

/**
 * Findings only a human may approve: `auto` mode and session grants do not cover them, because
 * the command is not what the checker read (the bytes or structure differ from bash's reading) or
 * bash evaluates a value again at run time (arithmetic, indirection): a rule the command would
 * break cannot be checked; or git runs by its path around the harness's guard (`git:unguarded`), so
 * the programs the repository configures (external diff, filters, fsmonitor) may run.
 */
export const HUMAN_ONLY_RULES: ReadonlySet<string> = new Set([
  'shell:ambiguous-bytes',
  'shell:parser-differential',
  'shell:arithmetic',
  'shell:indirection',
  'git:unguarded',
]);

/** A fixed rule id. */
export type FixedRuleId = keyof typeof RULES;

/** The rule ids of findings of the shell analysis (decided before the configuration's rules). */
export type FindingRuleId = Extract<
  FixedRuleId,
  | `analysis:${string}`
  | `shell:${string}`
  | `program:${string}`
  | `path:${string}`
  | `env:${string}`
  | `git:${string}`
  | `exfil:${string}`
>;

/** Every rule id a decision part may carry. */
export type RuleId =
  | FixedRuleId
  | `bash:${string}`
  | `paths:${'read' | 'write'}:${string}`
  | `sensitive:${string}`;
