/**
 * The git guard: every git a sandboxed command runs has the programs a repository can configure
 * disabled, so `git status`, `git diff`, `git log -p` run nothing a (text-only) `.git` names:
 * `core.fsmonitor` (run on every index refresh), pagers (`core.pager`, `pager.<cmd>`),
 * `diff.external` and diff drivers' `command`, textconv drivers, clean/smudge/process filters,
 * merge drivers, hooks (`core.hooksPath`), gpg programs, editors, credential helpers, ssh commands.
 *
 * Two layers: an environment (`GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`, the
 * command-line scope, which beats the repository's configuration and reaches nested git
 * processes; plus `GIT_PAGER`, `GIT_EDITOR`, …) set by every sandbox on every command, and a shim
 * that replaces git (bound over `/usr/bin/git` and `/usr/lib/git-core/git` in the bubblewrap box,
 * first on `PATH` elsewhere). The shim adds the same fixed settings (so `unset GIT_CONFIG_COUNT`
 * does not lift them), lists the repository's driver and filter names (`git config --name-only
 * --list`, which runs nothing) to disable each one, inserts `--no-ext-diff` for the diff family,
 * then runs the real git. Sources: git-config(1) (`GIT_CONFIG_COUNT`, "an empty string resets the
 * list" for `credential.helper`), gitattributes(5) (drivers), githooks(5), git(1) (`GIT_PAGER`).
 */
import { processTempDir } from './process-temp.ts';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Settings every git in the sandbox runs with (command-line scope). */
export const GIT_GUARD_SETTINGS: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.editor', 'true'],
  ['sequence.editor', 'true'],
  ['core.sshCommand', 'false'],
  ['core.askPass', 'false'],
  ['credential.helper', ''],
  ['gpg.program', 'false'],
  ['gpg.ssh.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['log.showSignature', 'false'],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['safe.bareRepository', 'explicit'],
  ['protocol.ext.allow', 'never'],
  ['submodule.recurse', 'false'],
  ['status.submoduleSummary', 'false'],
];

/** Environment variables that beat the repository's configuration for pagers, editors and prompts. */
const GIT_GUARD_VARIABLES: Record<string, string> = {
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  GIT_EDITOR: 'true',
  GIT_SEQUENCE_EDITOR: 'true',
  GIT_TERMINAL_PROMPT: '0',
  GIT_ASKPASS: 'false',
  GIT_SSH_COMMAND: 'false',
};

/** The guard's environment (to merge over a command's environment). */
export function gitGuardEnv(): Record<string, string> {
  const env: Record<string, string> = { ...GIT_GUARD_VARIABLES };
  GIT_GUARD_SETTINGS.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  env.GIT_CONFIG_COUNT = String(GIT_GUARD_SETTINGS.length);
  return env;
}

/** Single-quotes a value for sh. */
const sq = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** The diff family: `--no-ext-diff` is inserted after the subcommand. */
const DIFF_FAMILY = [
  'diff',
  'log',
  'show',
  'whatchanged',
  'diff-files',
  'diff-index',
  'diff-tree',
  'format-patch',
  'range-diff',
];

/** The shim script (POSIX sh) running `realGit` with the guard. */
export function gitShimScript(realGit: string): string {
  const fixed = GIT_GUARD_SETTINGS.map(([k, v]) => `add ${sq(k)} ${sq(v)}`).join('\n');
  return `#!/bin/sh
# harness-bench git guard (harness/sandbox/git-guard.ts): git with the repository-configured programs disabled.
real=${sq(realGit)}
n=\${GIT_CONFIG_COUNT:-0}
case $n in *[!0-9]*|'') n=0 ;; esac
add() { eval "GIT_CONFIG_KEY_$n=\\$1; GIT_CONFIG_VALUE_$n=\\$2; export GIT_CONFIG_KEY_$n GIT_CONFIG_VALUE_$n"; n=$((n+1)); }
${fixed}
# The global options before the subcommand, as references to the positional parameters.
skip=0; k=0; sub=; globals=
for a in "$@"; do
  k=$((k+1))
  if [ "$skip" = 1 ]; then skip=0; globals="$globals \\"\\\${$k}\\""; continue; fi
  case $a in
    -C|-c|--git-dir|--work-tree|--namespace|--super-prefix|--config-env|--attr-source) skip=1; globals="$globals \\"\\\${$k}\\"" ;;
    -*) globals="$globals \\"\\\${$k}\\"" ;;
    *) sub=$k; break ;;
  esac
done
# Drivers and filters are named by the repository: disable every one it configures.
set -f
nl='
'
keys=$(eval "\\"\\$real\\" $globals config --name-only --list" 2>/dev/null)
old=$IFS; IFS=$nl
for key in $keys; do
  case $key in
    diff.*.textconv) add "$key" cat ;;
    diff.*.command|filter.*.clean|filter.*.smudge|filter.*.process|merge.*.driver) add "$key" '' ;;
    filter.*.required) add "$key" false ;;
  esac
done
IFS=$old
set +f
export GIT_CONFIG_COUNT=$n
if [ -n "$sub" ]; then
  eval "name=\\\${$sub}"
  case $name in
    ${DIFF_FAMILY.join('|')})
      rest=; k=0
      for a in "$@"; do k=$((k+1)); [ $k -gt "$sub" ] && rest="$rest \\"\\\${$k}\\""; done
      eval "exec \\"\\$real\\" $globals \\"\\\${$sub}\\" --no-ext-diff $rest" ;;
  esac
fi
exec "$real" "$@"
`;
}

/** The host's git, or undefined when there is none. */
export function hostGit(): string | undefined {
  for (const candidate of ['/usr/bin/git', '/usr/local/bin/git', '/opt/homebrew/bin/git'])
    if (existsSync(candidate)) return realpathSync(candidate);
  try {
    const found = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    return found ? realpathSync(found) : undefined;
  } catch {
    return undefined;
  }
}

let shimRoot: string | undefined;
const shimDirs = new Map<string, string>();

/**
 * A folder the harness created (under the system temp folder, not the workspace) holding `git` —
 * the shim for `realGit` — for sandboxes that put it first on `PATH` or bind it over the real git.
 * One folder per `realGit` (the bubblewrap box's `/run/hb-git/git` and the host's git differ, and
 * both kinds of sandbox may run in one process), each created once per process.
 */
export function gitShimFolder(realGit: string): string {
  const known = shimDirs.get(realGit);
  if (known && existsSync(path.join(known, 'git'))) return known;
  if (!shimRoot || !existsSync(shimRoot)) {
    shimRoot = processTempDir('hb-git-guard-');
    chmodSync(shimRoot, 0o755);
  }
  const dir = path.join(shimRoot, String(shimDirs.size));
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  chmodSync(dir, 0o755);
  const file = path.join(dir, 'git');
  writeFileSync(file, gitShimScript(realGit));
  chmodSync(file, 0o755);
  shimDirs.set(realGit, dir);
  return dir;
}

/**
 * The guard for sandboxes that cannot replace the real git (none, Seatbelt): the guard's
 * environment with the shim's folder first on `PATH`. A git run by its path (`/usr/bin/git`)
 * escapes the shim there; the policy asks for it (`git:unguarded`).
 */
export function gitGuardPathEnv(env: Record<string, string>): Record<string, string> {
  const real = hostGit();
  const out = { ...env, ...gitGuardEnv() };
  if (real) out.PATH = `${gitShimFolder(real)}${path.delimiter}${env.PATH ?? '/usr/bin:/bin'}`;
  return out;
}
