/**
 * What a simple command does, as far as its program and arguments tell: whether it reaches the
 * network, whether it only reads, whether it cannot be undone, and whether it reads secrets
 * (which of its arguments are files it reads or writes: `file-operands.ts`). Effect classes
 * follow `docs/architecture.md` §3 (`read`, `write`, `irreversible`).
 */
import type { EffectClass } from '../tools/types.ts';
import type { ShellWord } from './shell-words.ts';

/** Programs that talk to other hosts whatever their arguments. */
const NETWORK_PROGRAMS = new Set([
  'curl',
  'wget',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'ssh',
  'scp',
  'sftp',
  'rsync',
  'ftp',
  'tftp',
  'telnet',
  'http',
  'https',
  'xh',
  'aria2c',
  'dig',
  'nslookup',
  'host',
  'ping',
  'gh',
  'glab',
  'aws',
  'gcloud',
  'gsutil',
  'az',
  'kubectl',
  'npx',
  'bunx',
  'pnpx',
  'uvx',
  'websocat',
  'mail',
  'sendmail',
  'mutt',
]);

/** Programs that reach the network with some subcommands. */
const NETWORK_SUBCOMMANDS: Record<string, Set<string>> = {
  git: new Set([
    'push',
    'pull',
    'fetch',
    'clone',
    'ls-remote',
    'submodule',
    'remote',
    'send-email',
    'request-pull',
  ]),
  npm: new Set([
    'install',
    'i',
    'ci',
    'add',
    'update',
    'up',
    'publish',
    'exec',
    'x',
    'login',
    'adduser',
    'unpublish',
    'deprecate',
    'dist-tag',
    'create',
    'init',
  ]),
  pnpm: new Set(['install', 'i', 'add', 'update', 'up', 'publish', 'dlx', 'exec', 'create']),
  yarn: new Set(['install', 'add', 'upgrade', 'publish', 'dlx', 'create', 'npm']),
  bun: new Set(['install', 'add', 'update', 'publish', 'x', 'create']),
  pip: new Set(['install', 'download', 'wheel']),
  pip3: new Set(['install', 'download', 'wheel']),
  uv: new Set(['add', 'sync', 'pip', 'tool', 'run', 'publish']),
  poetry: new Set(['add', 'install', 'update', 'publish']),
  cargo: new Set(['install', 'publish', 'fetch', 'update', 'add', 'login']),
  go: new Set(['get', 'install', 'mod']),
  docker: new Set(['pull', 'push', 'login', 'run', 'build', 'search']),
  podman: new Set(['pull', 'push', 'login', 'run', 'build', 'search']),
  gem: new Set(['install', 'push', 'update', 'fetch']),
  apt: new Set(['install', 'update', 'upgrade', 'download']),
  'apt-get': new Set(['install', 'update', 'upgrade', 'download']),
  brew: new Set(['install', 'update', 'upgrade', 'fetch', 'tap']),
};

/** Programs that change nothing (with the exceptions in {@link isReadOnly}). */
const READ_ONLY = new Set([
  'ls',
  'cat',
  'head',
  'tail',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'wc',
  'pwd',
  'echo',
  'printf',
  'true',
  'false',
  'test',
  '[',
  'stat',
  'file',
  'which',
  'type',
  'whoami',
  'id',
  'uname',
  'date',
  'tree',
  'du',
  'df',
  'sort',
  'uniq',
  'cut',
  'tr',
  'diff',
  'cmp',
  'less',
  'more',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'jq',
  'nl',
  'tac',
  'xxd',
  'od',
  'hexdump',
  'strings',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'sha512sum',
  'cksum',
  'seq',
  'sleep',
  'cd',
  'pushd',
  'popd',
  'find',
  'sed',
  'awk',
  'column',
  'fold',
  'fmt',
  'expand',
  'unexpand',
  'paste',
  'join',
  'comm',
  'base64',
  'hostname',
  'locale',
  'printenv',
  'env',
  'ps',
  'git',
  'npm',
  'node',
  'python',
  'python3',
]);

/** Subcommands under which a program in {@link READ_ONLY} with subcommands only reads. */
const READ_ONLY_SUBCOMMANDS: Record<string, Set<string>> = {
  git: new Set([
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
  ]),
  npm: new Set([
    'ls',
    'list',
    'view',
    'outdated',
    'help',
    'config',
    'root',
    'prefix',
    'bin',
    'explain',
    'why',
  ]),
  node: new Set(['--version', '-v']),
  python: new Set(['--version', '-V']),
  python3: new Set(['--version', '-V']),
};

/** Options that make an otherwise read-only program write or run something. */
const WRITING_OPTIONS: Record<string, RegExp> = {
  find: /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/,
  sed: /^(-i|--in-place)/,
  awk: /system|>|\|/,
  sort: /^(-o|--output)/,
};

/** Programs whose effect cannot be undone (beside the network ones). */
const IRREVERSIBLE = new Set([
  'rm',
  'shred',
  'rmdir',
  'unlink',
  'dd',
  'mkfs',
  'wipefs',
  'truncate',
  'kill',
  'killall',
  'pkill',
  'shutdown',
  'reboot',
  'crontab',
]);
const IRREVERSIBLE_SUBCOMMANDS: Record<string, RegExp> = {
  git: /^(push|clean|reset --hard|checkout -- |restore|branch -D|stash (drop|clear)|gc --prune|reflog expire|filter-branch|update-ref -d)/,
};

const values = (args: readonly ShellWord[]) => args.map((a) => a.value ?? a.text);
const firstOperand = (args: readonly ShellWord[]) =>
  args.find((a) => !(a.value ?? a.text).startsWith('-'))?.value;

/** True when the command reaches another host. */
export function isNetwork(program: string, args: readonly ShellWord[]): boolean {
  if (NETWORK_PROGRAMS.has(program)) return true;
  const sub = NETWORK_SUBCOMMANDS[program];
  const first = firstOperand(args);
  return !!sub && first !== undefined && sub.has(first);
}

/** True when the command only reads (no writes, no network, runs nothing else). */
export function isReadOnly(program: string, args: readonly ShellWord[]): boolean {
  if (!READ_ONLY.has(program)) return false;
  const writing = WRITING_OPTIONS[program];
  if (program === 'env' || program === 'printenv') return args.length === 0 || program === 'printenv';
  if (writing && values(args).some((v) => writing.test(v))) return false;
  const subs = READ_ONLY_SUBCOMMANDS[program];
  if (subs) {
    const first = firstOperand(args);
    return first !== undefined && subs.has(first);
  }
  return true;
}

/** True when the command cannot be undone: deletes, kills, pushes, or reaches the network. */
export function isIrreversible(program: string, args: readonly ShellWord[]): boolean {
  if (isNetwork(program, args)) return true;
  if (IRREVERSIBLE.has(program)) return true;
  const pattern = IRREVERSIBLE_SUBCOMMANDS[program];
  return !!pattern && pattern.test(values(args).join(' '));
}

/** The effect class of one simple command. */
export function commandEffect(program: string, args: readonly ShellWord[]): EffectClass {
  if (isIrreversible(program, args)) return 'irreversible';
  return isReadOnly(program, args) ? 'read' : 'write';
}

/** Variable names that usually hold credentials. */
export const SECRET_NAME =
  /(TOKEN|SECRET|PASSW(OR)?D|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH|COOKIE|SESSION)/i;
/** Files that usually hold credentials (matched against the argument text). */
const SECRET_FILE =
  /(^|[/@=])(\.env(\.[\w.-]+)?|\.netrc|\.npmrc|\.pypirc|\.git-credentials|id_(rsa|dsa|ecdsa|ed25519)\b[^/]*|[^/]*\.pem|credentials(\.json)?|\.aws\/|\.ssh\/|\.gnupg\/|\.kube\/config|\.docker\/config\.json|\/proc\/[^/]+\/environ)/;

/**
 * True when the command reads secrets: the whole environment (`env`, `printenv`, `set`,
 * `export -p`), a variable whose name looks like a credential (`$GH_TOKEN`), or a credential
 * file (`.env`, `~/.ssh/id_rsa`, `@.netrc`).
 */
export function readsSecrets(program: string, args: readonly ShellWord[]): boolean {
  if (
    (program === 'env' ||
      program === 'printenv' ||
      program === 'set' ||
      program === 'declare' ||
      program === 'typeset') &&
    args.length === 0
  )
    return true;
  if (program === 'export' && values(args).includes('-p')) return true;
  if (program === 'printenv' && values(args).some((v) => SECRET_NAME.test(v))) return true;
  for (const arg of args) {
    for (const match of arg.text.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g))
      if (SECRET_NAME.test(match[1]!)) return true;
    if (SECRET_FILE.test(arg.value ?? arg.text)) return true;
  }
  return false;
}
