/**
 * git: its global options (`-C`, `--git-dir`: folders read; `-c`, `--config-env`, `--exec-path`:
 * configuration that can run programs), the option tables of its subcommands (`diff --output`
 * writes, `difftool -x` runs a command, `grep -O` opens a pager), which subcommands only read,
 * reach the network or cannot be undone, and the guard the harness runs it under: every git
 * invocation in the sandbox has fsmonitor, pagers, external diff and textconv drivers, filters
 * and hooks disabled (`sandbox/git-guard.ts`), so the read-only subcommands run nothing the
 * repository configures. Sources: git(1), git-diff(1), git-difftool(1), git-grep(1),
 * git-config(1).
 */
import { commandOfGitConfig } from '../code-strings.ts';
import { commandsRun, helpViewer, historyReads } from './git-history.ts';
import type { ShellWord } from '../shell-words.ts';
import { firstOperand, literal, optionEffects, read, values, walk, write } from './helpers.ts';
import { hasOption, scanOptions, type OptionSpec } from '../shell-options.ts';
import { scanned, scanProgramArgs, type OptionRole, type OptionTable } from './options.ts';
import type { ProgramCall, ProgramEffects, ProgramRecord, WrapperInfo } from './types.ts';

const V = 'value' as const;
const R = 'read' as const;
const W = 'write' as const;

/** Git subcommands: their options and the flags that run configured programs. */
const DIFF_VALUES: Record<string, OptionRole> = {
  output: W,
  'src-prefix': V,
  'dst-prefix': V,
  'line-prefix': V,
  'diff-filter': V,
  'find-object': V,
  'word-diff-regex': V,
  'ignore-matching-lines': V,
  'rotate-to': V,
  'skip-to': V,
  anchored: V,
  'output-indicator-new': V,
  'output-indicator-old': V,
  'output-indicator-context': V,
  'inter-hunk-context': V,
  'diff-algorithm': V,
  'ws-error-highlight': V,
  'color-moved-ws': V,
  author: V,
  committer: V,
  grep: V,
  since: V,
  until: V,
  after: V,
  before: V,
  'max-count': V,
  skip: V,
  format: V,
  pretty: V,
  encoding: V,
  notes: V,
  date: V,
  exclude: V,
  branches: V,
  tags: V,
  remotes: V,
  glob: V,
};
const EXT_DIFF = {
  '--ext-diff': 'git runs the external diff program configured in diff.external or GIT_EXTERNAL_DIFF',
};
const GIT_DIFF: OptionTable = { short: { S: V, G: V, O: R, L: V, n: V }, long: DIFF_VALUES, runs: EXT_DIFF };

/** git's global options: the folders they name are read (`git -C ../other log`). */
export const GIT_GLOBAL: OptionTable = {
  short: { C: R, c: V },
  long: {
    'git-dir': R,
    'work-tree': R,
    namespace: V,
    'exec-path': V,
    'super-prefix': V,
    'config-env': V,
    'list-cmds': V,
    'attr-source': V,
  },
  permute: false,
};

/** Options of git subcommands (after the global options, which `shell-wrappers.ts` handles). */
export const GIT_OPTIONS: Record<string, OptionTable> = {
  diff: GIT_DIFF,
  log: GIT_DIFF,
  show: GIT_DIFF,
  whatchanged: GIT_DIFF,
  'range-diff': GIT_DIFF,
  'diff-tree': GIT_DIFF,
  'diff-files': GIT_DIFF,
  'diff-index': GIT_DIFF,
  'format-patch': {
    ...GIT_DIFF,
    short: { ...GIT_DIFF.short, o: W },
    long: {
      ...DIFF_VALUES,
      'output-directory': W,
      'in-reply-to': V,
      to: V,
      cc: V,
      subject: V,
      'subject-prefix': V,
      signature: V,
      'signature-file': R,
      'cover-letter': V,
      'add-header': V,
      from: V,
      base: V,
      interdiff: V,
      'range-diff': V,
    },
  },
  difftool: { short: { x: 'script', t: V }, long: { extcmd: 'script', tool: V } },
  mergetool: { short: { t: V }, long: { tool: V } },
  grep: {
    short: { f: R, e: V, A: V, B: V, C: V, m: V },
    shortOptional: { O: 'script' },
    long: {
      file: R,
      'max-depth': V,
      threads: V,
      'max-count': V,
      context: V,
      'after-context': V,
      'before-context': V,
    },
    longOptional: { 'open-files-in-pager': 'script' },
  },
  'hash-object': { long: { path: V, 'stdin-paths': V } },
  archive: {
    short: { o: W },
    long: {
      output: W,
      remote: V,
      exec: 'program',
      prefix: V,
      format: V,
      'add-file': R,
      'add-virtual-file': V,
    },
  },
  commit: {
    short: { F: R, t: R, m: V, c: V, C: V },
    long: {
      file: R,
      template: R,
      message: V,
      'reuse-message': V,
      'reedit-message': V,
      author: V,
      date: V,
      fixup: V,
      squash: V,
      'pathspec-from-file': R,
      trailer: V,
      cleanup: V,
    },
  },
  tag: {
    short: { F: R, m: V, u: V },
    long: { file: R, message: V, 'local-user': V, cleanup: V, sort: V, contains: V, points_at: V, format: V },
  },
  blame: {
    short: { S: R, L: V, C: V, M: V },
    long: { contents: R, 'ignore-revs-file': R, 'ignore-rev': V, date: V },
  },
  config: { short: { f: V }, long: { file: V, blob: V, type: V, default: V, comment: V, value: V } },
  clone: {
    short: { b: V, o: V, c: V, u: V, j: V },
    long: {
      branch: V,
      origin: V,
      config: V,
      'upload-pack': 'program',
      template: R,
      reference: R,
      'separate-git-dir': W,
      depth: V,
      'shallow-since': V,
      'shallow-exclude': V,
      jobs: V,
      filter: V,
    },
  },
  init: {
    long: { template: R, 'separate-git-dir': W, 'object-format': V, 'initial-branch': V, shared: V },
    short: { b: V },
  },
  apply: {
    short: { p: V, C: V },
    long: { directory: V, exclude: V, include: V, whitespace: V, 'build-fake-ancestor': W },
  },
  am: {
    short: { p: V, C: V },
    long: { directory: V, exclude: V, include: V, whitespace: V, 'patch-format': V, resolvemsg: V },
  },
};

/** Subcommands that only read (with the guard, they run nothing the repository configures). */
const READ_ONLY = new Set([
  'status',
  'diff',
  'log',
  'show',
  'blame',
  'rev-parse',
  'ls-files',
  'ls-tree',
  'grep',
  'describe',
  'shortlog',
  'cat-file',
  'whatchanged',
  'reflog',
]);
/** Subcommands that reach another host. */
const NETWORK = new Set([
  'push',
  'pull',
  'fetch',
  'clone',
  'ls-remote',
  'submodule',
  'remote',
  'send-email',
  'request-pull',
]);
const IRREVERSIBLE =
  /^(push|clean|reset --hard|checkout -- |restore|branch -D|stash (drop|clear)|gc --prune|reflog expire|filter-branch|update-ref -d)/;
/** Every built-in subcommand (git 2.39 `git help -a`, porcelain and plumbing); any other name may be an alias from the repository's configuration. */
const BUILTIN = new Set([
  ...READ_ONLY,
  ...NETWORK,
  ...'add am annotate apply archive bisect branch bundle check-attr check-ignore check-mailmap check-ref-format checkout checkout-index cherry cherry-pick citool clean commit commit-graph commit-tree config count-objects credential diff-files diff-index diff-tree difftool fast-export fast-import fetch-pack for-each-ref for-each-repo format-patch fsck gc get-tar-commit-id gitk gui hash-object help hook index-pack init instaweb interpret-trailers log ls-remote maintenance merge merge-base merge-file merge-index merge-tree mergetool mktag mktree multi-pack-index mv name-rev notes pack-objects pack-redundant pack-refs patch-id prune prune-packed range-diff read-tree rebase receive-pack reflog repack replace rerere reset restore rev-list revert rm send-pack show-branch show-index show-ref sparse-checkout stash stripspace switch symbolic-ref tag unpack-file unpack-objects update-index update-ref update-server-info upload-archive upload-pack var verify-commit verify-pack verify-tag version worktree write-tree'.split(
    ' ',
  ),
]);

/** The subcommand of a git call, after the global options (undefined when there is none or it is dynamic). */
function subcommand(args: readonly ShellWord[]): { name?: string; index: number } {
  const index = subcommandIndex(args);
  return { ...(args[index]?.value !== undefined ? { name: args[index]!.value } : {}), index };
}

/** Where the subcommand starts: global options skipped (`-C dir`, `-c k=v`, `--git-dir=x`). */
function subcommandIndex(args: readonly ShellWord[]): number {
  return scanOptions(args, GIT_GLOBAL_SPEC).index;
}

function gitOperands(call: ProgramCall, out: ProgramEffects): void {
  const args = call.args;
  const sub = args[0]?.value;
  helpViewer(args, out);
  if (sub !== undefined && !sub.startsWith('-')) commandsRun(sub, args.slice(1), out);
  // Global options first (`git -C x diff`): the folders they name are reads; the wrapper unwraps the subcommand as a part of its own.
  if (sub?.startsWith('-')) {
    optionEffects(scanProgramArgs(args, GIT_GLOBAL), GIT_GLOBAL, 'git', out);
    return;
  }
  if (sub === undefined) return;
  const table = GIT_OPTIONS[sub];
  if (sub === 'grep') out.walks.push(walk([literal('.')], 'none', true));
  if (!table) {
    historyReads(sub, args.slice(1), scanProgramArgs(args.slice(1), {}).operands, out);
    return;
  }
  const scan = scanProgramArgs(args.slice(1), table);
  optionEffects(scan, table, `git ${sub}`, out);
  const operands = scan.operands;
  historyReads(sub, args.slice(1), operands, out);
  switch (sub) {
    case 'diff':
      // `git diff A B` compares files outside the repository as `--no-index` does: every operand may be a file read.
      out.files.push(...operands.map(read));
      break;
    case 'difftool':
    case 'mergetool':
      if (!scanned(scan, '-x', '--extcmd'))
        out.runs.push({
          kind: 'unknown',
          rule: 'program:runs-command',
          reason: `git ${sub} runs the diff or merge tool configured in git's configuration`,
        });
      break;
    case 'grep':
      if (scan.options.some((o) => (o.name === '-O' || o.name === '--open-files-in-pager') && !o.value))
        out.runs.push({
          kind: 'unknown',
          rule: 'program:runs-command',
          reason: 'git grep -O opens the files in the configured pager',
        });
      break;
    case 'config':
      configEffects(scan, operands, out);
      break;
    case 'clone':
      if (operands.length >= 2) out.files.push(write(operands[1]!));
      break;
    case 'init':
      if (operands[0]) out.files.push(write(operands[0]));
      break;
    case 'add':
    case 'apply':
    case 'am':
    case 'hash-object':
      out.files.push(...operands.map(read));
      break;
    default:
      break;
  }
}

/** `git config`: setting core.pager, core.fsmonitor, diff.external or an alias makes later git commands run programs. */
function configEffects(
  scan: ReturnType<typeof scanProgramArgs>,
  operands: ShellWord[],
  out: ProgramEffects,
): void {
  const modes = new Set(scan.options.map((o) => o.name));
  const reading = [
    '--get',
    '--get-all',
    '--get-regexp',
    '--get-urlmatch',
    '--get-color',
    '--get-colorbool',
    '-l',
    '--list',
    '--show-origin',
    '--show-scope',
    '--name-only',
  ].some((m) => modes.has(m));
  const action = operands[0]?.value;
  const writes =
    ['set', 'unset', 'edit', 'rename-section', 'remove-section'].includes(action ?? '') ||
    [
      '--add',
      '--unset',
      '--unset-all',
      '--replace-all',
      '--rename-section',
      '--remove-section',
      '-e',
      '--edit',
    ].some((m) => modes.has(m)) ||
    (!reading && action !== 'get' && action !== 'list' && operands.length >= 2);
  const file = scan.options.find((o) => o.name === '-f' || o.name === '--file')?.value;
  const target =
    file ??
    literal(
      modes.has('--global') ? '~/.gitconfig' : modes.has('--system') ? '/etc/gitconfig' : '.git/config',
    );
  if (writes) out.files.push(write(target));
  else if (file) out.files.push(read(file));
}

/** git's global options for unwrapping (no abbreviations: git.c parses them by hand). */
const GIT_GLOBAL_SPEC: OptionSpec = {
  short: 'Cc',
  long: [
    'git-dir',
    'work-tree',
    'namespace',
    'exec-path',
    'super-prefix',
    'config-env',
    'list-cmds',
    'attr-source',
  ],
};

/** `git -C dir sub …`: the subcommand is unwrapped as a part of its own. */
function unwrapGit(args: readonly ShellWord[]): WrapperInfo {
  const scan = scanOptions(args, GIT_GLOBAL_SPEC);
  if (scan.index === 0 || scan.index >= args.length) return { inner: [], assignments: [] };
  const info: WrapperInfo = {
    inner: [{ kind: 'argv', words: [literal('git'), ...args.slice(scan.index)] }],
    assignments: [],
  };
  if (hasOption(scan, '-C', '--git-dir', '--work-tree')) info.changesDirectory = true;
  if (hasOption(scan, '-c', '--config-env', '--exec-path')) info.configOverride = true;
  // `git -c core.pager=CMD`: the command a setting names is decided as what it is.
  for (let i = 0; i < scan.index; i += 1) {
    const v = args[i]!.value;
    const setting = v === '-c' ? args[i + 1]?.value : v?.startsWith('-c') ? v.slice(2) : undefined;
    const command = setting !== undefined ? commandOfGitConfig(setting) : undefined;
    if (command !== undefined) info.inner.push({ kind: 'script', script: command });
  }
  return info;
}

/** What the harness's git guard disables, for policy reasons. */
export const GIT_GUARD =
  'git runs with the repository-configured programs disabled (core.fsmonitor, pagers, diff.external and diff drivers, textconv, clean/smudge filters, merge drivers, hooks, gpg), so it runs nothing the repository configures';

/** The git record. */
export const GIT: readonly ProgramRecord[] = [
  {
    names: ['git'],
    scan: (args) => ({ options: [], operands: [...args] }),
    operands: gitOperands,
    wrapper: unwrapGit,
    guard: GIT_GUARD,
    effect: (call) => {
      const { name } = subcommand(call.args);
      if (IRREVERSIBLE.test(values(call.args).join(' '))) return 'irreversible';
      return name !== undefined && READ_ONLY.has(name) && call.args[0]?.value === name ? 'read' : 'write';
    },
    network: (call) => {
      const first = firstOperand(call.args);
      return first !== undefined && NETWORK.has(first);
    },
    repositoryCode: (call) => {
      const { name } = subcommand(call.args);
      if (name === undefined || call.args[0]?.value !== name || BUILTIN.has(name)) return undefined;
      return `git ${name} is no built-in subcommand: an alias from the repository's configuration may run a shell command`;
    },
  },
];
