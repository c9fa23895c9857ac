/**
 * Strings that other programs run as shell code: variables whose value is a command (pagers,
 * editors, ssh and askpass programs, git's external diff), git configuration values that name a
 * command (`git -c core.pager=…`, `alias.x=!…`), awk's `system("…")` and pipes to `"…"`, editor
 * commands that start with `!` (`vim -c '!cmd'`, `+!cmd`). The analysis gets each string and
 * decides it as the command it is, so `GIT_PAGER='rm -rf x' git log` is decided as `rm -rf x`,
 * and `GIT_PAGER=cat git log` as `cat`. A string built from an expansion cannot be decided and
 * asks. Sources: git(1) "ENVIRONMENT VARIABLES", git-config(1), man(1) `-P`, less(1) LESSOPEN,
 * awk(1p) `system`, "Output Statements" (`print | cmd`), `getline`; vim `:!`.
 */

/** Variables whose value is a command line a program runs (the pager, the editor, an ssh or askpass program, git's external diff). */
export const COMMAND_VARIABLE =
  /^(PAGER|GIT_PAGER|MANPAGER|SYSTEMD_PAGER|EDITOR|VISUAL|GIT_EDITOR|GIT_SEQUENCE_EDITOR|GIT_SSH_COMMAND|GIT_SSH|GIT_EXTERNAL_DIFF|GIT_ASKPASS|SSH_ASKPASS|SUDO_ASKPASS|GIT_PROXY_COMMAND|BROWSER|LESSOPEN|LESSCLOSE|PROMPT_COMMAND)$/;

/**
 * The command a command-valued variable runs: the value as a command line (LESSOPEN's leading `|`
 * or `||` dropped; programs that get a file or arguments appended get `{}`), or undefined when the
 * variable names no command.
 */
export function commandOfVariable(name: string, value: string): string | undefined {
  if (!COMMAND_VARIABLE.test(name)) return undefined;
  if (name === 'LESSOPEN' || name === 'LESSCLOSE')
    return value.replace(/^\|{1,2}-?/, '').replace(/%s/g, '{}');
  // The program is given a file or arguments (or the text on stdin): shown as `{}` like xargs.
  return name === 'PROMPT_COMMAND' || value.trim() === '' ? value : `${value} {}`;
}

/** git configuration keys whose value is a command (git-config(1)); `alias.*` runs a shell only after `!`. */
const COMMAND_CONFIG =
  /^(core\.(pager|editor|sshcommand|fsmonitor|askpass)|pager\..+|sequence\.editor|interactive\.difffilter|diff\.external|diff\..+\.(command|textconv)|filter\..+\.(clean|smudge|process)|merge\..+\.driver|gpg(\..+)?\.program|man\..+\.cmd|(help|web)\.browser|browser\..+\.cmd|sendemail\.(smtpserver|tocmd|cccmd)|uploadpack\.packobjectshook|core\.gitproxy)$/i;

/**
 * The shell command a `git -c key=value` setting makes git run, when the key names a command:
 * the value itself, an alias after `!` (an alias without `!` is a git command: `git VALUE`), a
 * credential helper after `!` (else `git credential-VALUE`); undefined for other keys.
 */
export function commandOfGitConfig(setting: string): string | undefined {
  const eq = setting.indexOf('=');
  const key = eq < 0 ? setting : setting.slice(0, eq);
  const value = eq < 0 ? 'true' : setting.slice(eq + 1);
  if (/^alias\./i.test(key)) return value.startsWith('!') ? value.slice(1) : `git ${value}`;
  if (/^credential(\..+)?\.helper$/i.test(key))
    return value === '' ? undefined : value.startsWith('!') ? value.slice(1) : `git credential-${value} get`;
  return COMMAND_CONFIG.test(key) && value !== '' ? value : undefined;
}

/** What an awk program runs: the literal commands of `system("…")`, `print | "…"` and `"…" | getline`, and whether any command is not literal. */
export interface AwkCommands {
  commands: string[];
  /** The program with those commands taken out (for the checks of what else it does). */
  rest: string;
  /** Set when a `system`, pipe or `getline` command is built from data or variables. */
  dynamic?: string;
}

/** Unescapes an awk string literal's body. */
const awkString = (body: string): string =>
  body.replace(/\\(["\\/nt])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));

/** The commands an awk program runs (see {@link AwkCommands}). */
export function awkCommands(program: string): AwkCommands {
  const out: AwkCommands = { commands: [], rest: program };
  const lit = '"((?:[^"\\\\]|\\\\.)*)"';
  let rest = program;
  for (const re of [
    new RegExp(`\\bsystem\\s*\\(\\s*${lit}\\s*\\)`, 'g'),
    new RegExp(`\\|&?\\s*${lit}`, 'g'),
    new RegExp(`${lit}\\s*\\|&?\\s*getline`, 'g'),
  ])
    rest = rest.replace(re, (_, body: string) => {
      out.commands.push(awkString(body));
      return ' ';
    });
  if (/\bsystem\s*\(/.test(rest))
    out.dynamic = 'the awk program calls system() with a command built at run time';
  else if (/(^|[^|])\|&?(?!\|)/.test(rest) || /\|\s*getline/.test(rest))
    out.dynamic = 'the awk program pipes to or from a command built at run time';
  out.rest = rest;
  return out;
}

/** The shell command an editor command runs (`!cmd`, `:!cmd`, `silent !cmd`, `r !cmd`), or undefined. */
export function shellOfEditorCommand(command: string): string | undefined {
  const m = /^[:\s]*(?:silent!?\s+|(?:\d+)?r(?:ead)?\s*)?!(.*)$/s.exec(command);
  return m ? m[1] : undefined;
}
