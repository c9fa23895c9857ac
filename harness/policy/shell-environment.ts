/**
 * The environment a command changes: variables that change what later commands run or load, and
 * commands that drop the variables the harness set (the git guard, PATH).
 */
import { type Accumulator, finding } from './shell-accumulator.ts';
import type { ShellWord } from './shell-words.ts';

/**
 * Variables that change what a command runs or loads (loader, shell start-up, pagers and their
 * input filters, git, package registries, options read from the environment by tar, ripgrep
 * and pytest).
 */
export const DANGEROUS_VARIABLE =
  /^(LD_\w+|DYLD_\w+|PATH|BASH_ENV|ENV|PROMPT_COMMAND|IFS|PS4|SHELLOPTS|BASHOPTS|GIT_\w+|PAGER|EDITOR|VISUAL|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|NODE_OPTIONS|NODE_PATH|PERL5LIB|PERL5OPT|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|npm_config_\w+|NPM_CONFIG_\w+|PIP_\w+|UV_\w+|CARGO_\w+|HOME|LESSOPEN|LESSCLOSE|LESS|LESSKEY\w*|MANPAGER|MANOPT|SYSTEMD_PAGER|BROWSER|SHELL|SSH_ASKPASS|SUDO_ASKPASS|TAR_OPTIONS|GREP_OPTIONS|RIPGREP_CONFIG_PATH|PYTEST_ADDOPTS|PYTEST_PLUGINS|AWKPATH|AWKLIBPATH|GCONV_PATH|ZDOTDIR|XDG_CONFIG_HOME)$/;

/**
 * git variables that only name the author, switch prompts and locks off, or trace to the terminal
 * (git(1) "ENVIRONMENT VARIABLES"): setting them runs and loads nothing. `GIT_TRACE*` counts only
 * with a level (`1`, `2`, `true`): a path value makes git write that file.
 */
const BENIGN_GIT =
  /^GIT_(AUTHOR_(NAME|EMAIL|DATE)|COMMITTER_(NAME|EMAIL|DATE)|TERMINAL_PROMPT|OPTIONAL_LOCKS|MERGE_AUTOEDIT|MERGE_VERBOSITY|FLUSH|(LITERAL|GLOB|NOGLOB|ICASE)_PATHSPECS|ADVICE|PROGRESS_DELAY|REFLOG_ACTION|REDACT_COOKIES|NO_REPLACE_OBJECTS|DEFAULT_HASH|QUARANTINE_PATH)$/;
const GIT_TRACE = /^GIT_TRACE(_[A-Z0-9_]+)?$/;

/**
 * True when assigning `value` to `name` changes what commands run or load (`DANGEROUS_VARIABLE`),
 * except the git variables that do not ({@link BENIGN_GIT}, a trace level). A command-valued
 * variable (`code-strings.ts`) is decided by the command it holds instead.
 */
export function assignmentIsDangerous(name: string, value: string | undefined): boolean {
  if (BENIGN_GIT.test(name)) return false;
  if (GIT_TRACE.test(name) && value !== undefined && /^(|[0-9]|true|false|yes|no)$/i.test(value))
    return false;
  return DANGEROUS_VARIABLE.test(name);
}

/** `env -i`, `env -u NAME`, `unset NAME`, `export -n NAME`: dropping the environment the harness set (the git guard, PATH). */
export function environmentChanges(
  acc: Accumulator,
  name: string,
  args: readonly ShellWord[],
  text: string,
): void {
  const values = args.map((a) => a.value);
  let dropped: string | undefined;
  if (name === 'env') {
    if (
      values.some(
        (v) =>
          v === '-i' || v === '--ignore-environment' || v === '-' || (v !== undefined && /^-[^-]*i/.test(v)),
      )
    )
      dropped = 'the whole environment';
    values.forEach((v, i) => {
      const unset =
        v === '-u' || v === '--unset' ? values[i + 1] : v?.startsWith('--unset=') ? v.slice(8) : undefined;
      if (unset !== undefined && DANGEROUS_VARIABLE.test(unset)) dropped = unset;
    });
  } else if (name === 'unset' || (name === 'export' && values.includes('-n'))) {
    dropped = values.find((v) => v !== undefined && DANGEROUS_VARIABLE.test(v));
  }
  if (dropped !== undefined)
    finding(
      acc,
      text,
      'ask',
      'env:dangerous-variable',
      `${name} drops ${dropped === 'the whole environment' ? dropped : `${dropped}, which`} the harness set for commands (the git guard, PATH), so later commands may run what it disables`,
    );
}
