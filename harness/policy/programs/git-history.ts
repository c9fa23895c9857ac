/**
 * What git prints from history and what its help runs: a history read (`git show REV:PATH`,
 * `git log -p -- PATH`, `git cat-file -p REV:PATH`, `git blame REV -- PATH`) prints the content
 * of PATH as it was, so it is a read of PATH, decided like `cat PATH` (a sensitive file asks, a
 * rule denying its read denies); `git help CMD` and `git CMD --help` run the manual viewer the
 * repository's configuration can name. Sources: git-show(1), gitrevisions(7), gitglossary(7)
 * "pathspec", git-help(1).
 */
import picomatch from 'picomatch';
import type { ShellWord } from '../shell-words.ts';
import { expandBraces, hasGlob } from '../path-expansion.ts';
import { literal, read, values, walk } from './helpers.ts';
import type { ProgramEffects } from './types.ts';

/** Flags of `git help` that list instead of opening a manual page. */
const HELP_LISTS =
  /^(-a|--all|-g|--guides|-c|--config|--user-interfaces|--developer-interfaces|--no-external-commands|--no-aliases|--verbose)$/;

/**
 * `git help CMD`, `git CMD --help`, `git --help CMD`: git shows the manual through the viewer its
 * configuration names (`help.format`, `man.viewer`, `man.<tool>.cmd`, `help.browser`,
 * `web.browser`), which the repository's `.git/config` can set to any command (git-help(1)).
 */
export function helpViewer(args: readonly ShellWord[], out: ProgramEffects): void {
  const vals = values(args);
  const dash = vals.indexOf('--');
  const before = dash >= 0 ? vals.slice(0, dash) : vals;
  const words = before.filter((v) => !v.startsWith('-'));
  const viewer =
    (before.includes('--help') && words.length > 0) ||
    (words[0] === 'help' && words.length > 1 && !before.some((v) => HELP_LISTS.test(v)));
  if (viewer)
    out.runs.push({
      kind: 'unknown',
      rule: 'program:runs-command',
      reason:
        'git help (and --help) opens the manual with the viewer git’s configuration names (help.format, man.viewer, man.<tool>.cmd, help.browser), which the repository can set to any command',
    });
}

/** Subcommands that print file content from history or the object store (a `rev:path`, a pathspec). */
const HISTORY = new Set([
  'log',
  'show',
  'whatchanged',
  'diff',
  'diff-tree',
  'blame',
  'annotate',
  'cat-file',
  'grep',
  'format-patch',
  'archive',
  'range-diff',
]);

/** Names that stand for the sensitive files a history may hold (a wildcard pathspec is tried on them). */
const SENSITIVE_SAMPLES = [
  '.env',
  '.env.local',
  'config/.env',
  '.envrc',
  '.npmrc',
  '.netrc',
  '.pypirc',
  '.git-credentials',
  'id_rsa',
  '.ssh/id_rsa',
  'key.pem',
  'server.key',
  '.aws/credentials',
  '.docker/config.json',
  '.kube/config',
];

/**
 * What a history read prints: `rev:path` (and `:path`, `:N:path` of the index) names the file
 * `path`; a pathspec names files, a folder every file under it, a wildcard pathspec every file it
 * matches. Each is a read of that path, decided like a read of the working-tree file (`cat .env`),
 * because what git prints from history is the file's content (git-show(1), gitrevisions(7),
 * gitglossary(7) "pathspec").
 */
export function historyReads(
  sub: string,
  args: readonly ShellWord[],
  operands: readonly ShellWord[],
  out: ProgramEffects,
): void {
  if (!HISTORY.has(sub)) return;
  const dash = args.findIndex((a) => a.value === '--');
  const afterDash = dash >= 0 ? new Set(args.slice(dash + 1)) : new Set<ShellWord>();
  // git grep's first operand is the pattern, unless -e or -f gives it.
  const pattern =
    sub === 'grep' && !args.some((a) => /^(-e|-f|--file|--file=.*)$/.test(a.value ?? ''))
      ? operands[0]
      : undefined;
  for (const word of operands) {
    if (word === pattern || word.value === undefined) continue;
    // Braces are the shell's (`HEAD:{.env,a}`), unless a brace holds no comma (`HEAD^{tree}:.env`).
    const alternatives = word.expands ? (expandBraces(word.value) ?? [word.value]) : [word.value];
    for (const v of alternatives) historyRead(sub, v, word.expands && hasGlob(v), afterDash.has(word), out);
  }
}

/** One word of a history read (see {@link historyReads}); `shellGlob`: unquoted glob characters the shell expands first. */
function historyRead(
  sub: string,
  v: string,
  shellGlob: boolean,
  afterDash: boolean,
  out: ProgramEffects,
): void {
  const object = /^[^:]*:(?:[0-3]:)?(.+)$/.exec(v);
  if (object && !afterDash) {
    if (!object[1]!.startsWith('/')) pathspec('object', object[1]!, false, out);
    return;
  }
  if (shellGlob) {
    out.files.push(read({ text: v, value: v, substitutions: [], expands: true, plain: true }));
    return;
  }
  if (!afterDash && (v.includes('..') || /[~^@{}]/.test(v) || /^([A-Z_]*HEAD|[0-9a-f]{7,40})$/.test(v)))
    return;
  pathspec(sub, v, afterDash, out);
}

/** A pathspec (or the path of `rev:path`): magic removed, a wildcard tried on sensitive names, a folder walked. */
function pathspec(sub: string, v: string, walked: boolean, out: ProgramEffects): void {
  if (/^:[!^]/.test(v)) return;
  const spec = v.replace(/^:\((top|glob|literal|icase|attr:[^)]*)\)/, '').replace(/^:\//, '');
  if (spec === '') return;
  if (/[*?[]/.test(spec)) {
    const test = picomatch(spec.includes('/') ? spec : `**/${spec}`, { dot: true });
    for (const sample of SENSITIVE_SAMPLES) if (test(sample)) out.files.push(read(literal(sample)));
    return;
  }
  if (sub !== 'diff') out.files.push(read(literal(spec)));
  if (walked) out.walks.push(walk([literal(spec)], 'none', true));
}

/** Options of git subcommands whose value is a shell command git runs (git-rebase(1) `--exec`, git-filter-branch(1) filters). */
const COMMAND_OPTIONS: Readonly<Record<string, RegExp>> = {
  rebase: /^(-x|--exec)$/,
  'filter-branch': /^--(env|tree|index|parent|msg|commit|tag-name)-filter$/,
};

/**
 * The commands a git subcommand runs given on its command line: `submodule foreach CMD`,
 * `rebase -x CMD`, `bisect run CMD ARGS…`, `filter-branch --tree-filter CMD`: each is analysed
 * as the command it is (git-submodule(1), git-rebase(1), git-bisect(1), git-filter-branch(1)).
 */
export function commandsRun(sub: string, args: readonly ShellWord[], out: ProgramEffects): void {
  const vals = values(args);
  const unknown = (what: string) =>
    out.runs.push({
      kind: 'unknown',
      rule: 'program:dynamic',
      reason: `the command git ${sub} runs is built from an expansion (${what})`,
    });
  if (sub === 'submodule' && vals.includes('foreach')) {
    const rest = args
      .slice(vals.indexOf('foreach') + 1)
      .filter((a) => !/^(--recursive|-q|--quiet)$/.test(a.value ?? ''));
    if (rest.length === 0) return;
    if (rest.some((a) => a.value === undefined)) unknown(rest.map((a) => a.text).join(' '));
    else out.runs.push({ kind: 'script', script: rest.map((a) => a.value).join(' ') });
    return;
  }
  if (sub === 'bisect' && vals[0] === 'run') {
    if (args.length > 1) out.runs.push({ kind: 'argv', words: [...args.slice(1)] });
    return;
  }
  const option = COMMAND_OPTIONS[sub];
  if (!option) return;
  for (let i = 0; i < args.length; i += 1) {
    const v = args[i]!.value;
    if (v === undefined) continue;
    const eq = v.indexOf('=');
    const name = eq > 0 && v.startsWith('--') ? v.slice(0, eq) : v;
    if (!option.test(name)) continue;
    const value = eq > 0 && v.startsWith('--') ? v.slice(eq + 1) : args[i + 1]?.value;
    if (value === undefined) unknown(args[i + 1]?.text ?? v);
    else out.runs.push({ kind: 'script', script: value });
  }
}
