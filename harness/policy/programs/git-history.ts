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
  for (const word of operands) {
    const v = word.value;
    if (v === undefined || word.expands) continue;
    const object = /^[^:]*:(?:[0-3]:)?(.+)$/.exec(v);
    if (object && !afterDash.has(word)) {
      if (!object[1]!.startsWith('/')) out.files.push(read(literal(object[1]!)));
      continue;
    }
    if (!afterDash.has(word) && sub !== 'log' && sub !== 'show' && sub !== 'blame' && sub !== 'whatchanged')
      continue;
    if (!afterDash.has(word) && (v.includes('..') || /[~^@]/.test(v))) continue;
    const spec = v.replace(/^:\((top|glob|literal|icase|attr:[^)]*)\)/, '').replace(/^:\//, '');
    if (/^:[!^]/.test(v) || spec === '') continue;
    if (/[*?[]/.test(spec)) {
      const test = picomatch(spec.includes('/') ? spec : `**/${spec}`, { dot: true });
      for (const sample of SENSITIVE_SAMPLES) if (test(sample)) out.files.push(read(literal(sample)));
      continue;
    }
    if (sub !== 'diff') out.files.push(read(literal(spec)));
    if (afterDash.has(word)) out.walks.push(walk([literal(spec)], 'none', true));
  }
}
