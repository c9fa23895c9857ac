/**
 * Wrapper commands: programs that run another command given as their arguments (`sudo`, `env`,
 * `timeout`, `nice`, `nohup`, `command`, `exec`, `xargs`, `flock`, …) or as a script string (`sh -c`,
 * `bash -lc`, `eval`, `su -c`, `watch`, `env -S`, `trap`, `mapfile -C`, `alias`). Unwrapping them
 * exposes the command that really runs, so a rule for `rm *` also sees `timeout 5 rm -rf x`.
 * Reports of the bypass: claude-code#37662 (E02) and its related threads; the wrapper list
 * follows the GNU coreutils, sudo, findutils and util-linux manuals.
 */
import { hasOption, optionValue, scanOptions, type OptionSpec } from '../shell-options.ts';
import { literalWord, type ShellWord } from '../shell-words.ts';
import type { ProgramRecord, Unwrapped, WrapperInfo } from './types.ts';

const V = 'value' as const;
const R = 'read' as const;
const W = 'write' as const;

/** Shells whose `-c` argument is a script. */
export const SHELLS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'yash',
  'busybox-sh',
  'fish',
]);

const none = (): WrapperInfo => ({ inner: [], assignments: [] });

function argvFrom(words: readonly ShellWord[], index: number): Unwrapped[] {
  return index < words.length ? [{ kind: 'argv', words: words.slice(index) }] : [];
}

function scriptFrom(word: ShellWord | undefined, what: string): Unwrapped[] {
  if (!word) return [];
  if (word.value === undefined)
    return [
      {
        kind: 'dynamic',
        reason: `${what} is built from an expansion (${word.text}) and cannot be known before it runs`,
      },
    ];
  return [{ kind: 'script', script: word.value }];
}

/** Joins words into a script the way `eval` and `watch` do (space-separated values). */
function joinedScript(words: readonly ShellWord[], what: string): Unwrapped[] {
  if (words.length === 0) return [];
  const dynamic = words.find((w) => w.value === undefined);
  if (dynamic)
    return [
      {
        kind: 'dynamic',
        reason: `${what} is built from an expansion (${dynamic.text}) and cannot be known before it runs`,
      },
    ];
  return [{ kind: 'script', script: words.map((w) => w.value).join(' ') }];
}

/** Simple wrappers: option spec, and how many operands come before the wrapped command. */
const SIMPLE: Record<string, { spec: OptionSpec; skip?: number; noCommandWith?: string[] }> = {
  sudo: {
    spec: {
      short: 'ugCDhprtTU',
      long: [
        'user',
        'group',
        'close-from',
        'chdir',
        'host',
        'prompt',
        'role',
        'type',
        'command-timeout',
        'other-user',
      ],
    },
    noCommandWith: [
      '-e',
      '--edit',
      '-l',
      '--list',
      '-v',
      '--validate',
      '-k',
      '-K',
      '--reset-timestamp',
      '--remove-timestamp',
      '-V',
      '--version',
      '-h',
      '--help',
    ],
  },
  doas: { spec: { short: 'uC' } },
  timeout: { spec: { short: 'sk', long: ['signal', 'kill-after'] }, skip: 1 },
  nice: { spec: { short: 'n', long: ['adjustment'], numeric: true } },
  nohup: { spec: {} },
  setsid: { spec: {} },
  time: { spec: { short: 'fo', long: ['format', 'output'] } },
  builtin: { spec: {} },
  exec: { spec: { short: 'a' } },
  command: { spec: {}, noCommandWith: ['-v', '-V'] },
  stdbuf: { spec: { short: 'ioe', long: ['input', 'output', 'error'] } },
  ionice: {
    spec: { short: 'cnp', long: ['class', 'classdata', 'pid', 'pgid', 'uid'] },
    noCommandWith: ['-p', '--pid', '-P', '--pgid', '-u', '--uid'],
  },
  taskset: { spec: {}, skip: 1, noCommandWith: ['-p', '--pid'] },
  chrt: {
    spec: { short: 'T', long: ['sched-runtime', 'sched-deadline', 'sched-period'] },
    skip: 1,
    noCommandWith: ['-p', '--pid', '-m', '--max'],
  },
  unbuffer: { spec: {} },
  caffeinate: { spec: { short: 'tw' } },
  busybox: { spec: {} },
  catchsegv: { spec: {} },
  strace: { spec: { short: 'eoOpPsSuIbXE', long: ['output', 'signal', 'trace'] } },
  ltrace: { spec: { short: 'eoOpsuaAnDlx' } },
  firejail: { spec: {} },
  proxychains: { spec: { short: 'f' } },
  proxychains4: { spec: { short: 'f' } },
  torsocks: { spec: { short: 'uapP' } },
};

function unwrapEnv(args: readonly ShellWord[]): WrapperInfo {
  const scan = scanOptions(args, {
    short: 'uCS',
    long: ['unset', 'chdir', 'split-string', 'block-signal', 'default-signal', 'ignore-signal'],
  });
  const info: WrapperInfo = { inner: [], assignments: [] };
  if (optionValue(scan, '-C', '--chdir')) info.changesDirectory = true;
  const split = optionValue(scan, '-S', '--split-string');
  let i = scan.index;
  // GNU env takes every operand holding `=` as an assignment, whatever the name (`X#=1`).
  while (i < args.length && args[i]!.value !== undefined && /^[^=]+=/.test(args[i]!.value!)) {
    const text = args[i]!.value!;
    const eq = text.indexOf('=');
    info.assignments.push({ name: text.slice(0, eq), value: literalWord(text.slice(eq + 1)) });
    i += 1;
  }
  if (split) {
    const rest = args.slice(i);
    info.inner = joinedScript([split, ...rest], 'the env -S string');
    return info;
  }
  info.inner = argvFrom(args, i);
  return info;
}

function unwrapShell(args: readonly ShellWord[]): WrapperInfo {
  const scan = scanOptions(args, { short: 'oO', long: ['rcfile', 'init-file'] });
  const hasC = scan.options.some((o) => o.name === '-c');
  if (hasC) return { inner: scriptFrom(args[scan.index], 'the -c script'), assignments: [] };
  // `bash script.sh` runs a file; `bash`, `bash -s` and `bash -` read the script from stdin.
  const readsStdin = hasOption(scan, '-s') || scan.index >= args.length || args[scan.index]!.value === '-';
  return { inner: [], assignments: [], readsStdin };
}

function unwrapSu(args: readonly ShellWord[]): WrapperInfo {
  const scan = scanOptions(args, {
    short: 'cgGsw',
    long: ['command', 'group', 'supp-group', 'shell', 'whitelist-environment', 'session-command'],
  });
  const script = optionValue(scan, '-c', '--command', '--session-command');
  return { inner: scriptFrom(script, 'the su -c command'), assignments: [] };
}

function unwrapXargs(args: readonly ShellWord[]): WrapperInfo {
  const scan = scanOptions(args, {
    short: 'adEILnPsi',
    long: [
      'arg-file',
      'delimiter',
      'eof',
      'replace',
      'max-lines',
      'max-args',
      'max-procs',
      'max-chars',
      'process-slot-var',
    ],
  });
  const replace = hasOption(scan, '-I', '-i', '--replace');
  const words = args.slice(scan.index);
  if (words.length === 0)
    return { inner: [{ kind: 'argv', words: [literalWord('echo'), literalWord('{}')] }], assignments: [] };
  // The arguments xargs reads from stdin are shown as `{}` so `rm *` still matches `xargs rm`.
  return {
    inner: [{ kind: 'argv', words: replace ? words : [...words, literalWord('{}')] }],
    assignments: [],
  };
}

/** `find … -exec CMD {} ;`: each `-exec`, `-execdir`, `-ok`, `-okdir` command. */
export function unwrapFind(args: readonly ShellWord[]): WrapperInfo {
  const inner: Unwrapped[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const value = args[i]!.value;
    if (value !== '-exec' && value !== '-execdir' && value !== '-ok' && value !== '-okdir') continue;
    let end = i + 1;
    while (end < args.length && args[end]!.value !== ';' && args[end]!.value !== '+') end += 1;
    if (end > i + 1) inner.push({ kind: 'argv', words: args.slice(i + 1, end) });
    i = end;
  }
  return { inner, assignments: [] };
}

function unwrapFlock(args: readonly ShellWord[]): WrapperInfo {
  const scan = scanOptions(args, {
    short: 'wEc',
    long: ['timeout', 'wait', 'conflict-exit-code', 'command'],
  });
  const script = optionValue(scan, '-c', '--command');
  if (script) return { inner: scriptFrom(script, 'the flock -c command'), assignments: [] };
  return { inner: argvFrom(args, scan.index + 1), assignments: [] };
}

/** `trap ACTION SIGNAL…`: the action is a script bash runs when the signal (or EXIT, ERR, DEBUG) comes. */
function unwrapTrap(args: readonly ShellWord[]): WrapperInfo {
  const scan = scanOptions(args, {});
  const operands = args.slice(scan.index);
  if (operands.length < 2 || operands[0]!.value === '-') return none();
  return { inner: scriptFrom(operands[0], 'the trap action'), assignments: [] };
}

/** `mapfile -C CALLBACK`: bash evaluates the callback with the index and the line as arguments. */
function unwrapMapfile(args: readonly ShellWord[]): WrapperInfo {
  const scan = scanOptions(args, { short: 'dnOsuCc' });
  const callback = optionValue(scan, '-C');
  if (!callback) return none();
  if (callback.value === undefined)
    return { inner: scriptFrom(callback, 'the mapfile -C callback'), assignments: [] };
  return { inner: [{ kind: 'script', script: `${callback.value} {} {}` }], assignments: [] };
}

function unwrapWatch(args: readonly ShellWord[]): WrapperInfo {
  const scan = scanOptions(args, { short: 'nqd', long: ['interval', 'differences', 'equexit', 'chgexit'] });
  if (hasOption(scan, '-x', '--exec')) return { inner: argvFrom(args, scan.index), assignments: [] };
  return { inner: joinedScript(args.slice(scan.index), 'the watch command'), assignments: [] };
}

/** A simple wrapper's unwrapping from its {@link SIMPLE} spec. */
function simpleWrapper(name: string): (args: readonly ShellWord[]) => WrapperInfo {
  const simple = SIMPLE[name]!;
  return (args) => {
    const scan = scanOptions(args, simple.spec);
    if (simple.noCommandWith && hasOption(scan, ...simple.noCommandWith)) return none();
    return { inner: argvFrom(args, scan.index + (simple.skip ?? 0)), assignments: [] };
  };
}

/** Option tables of wrappers whose options name files (their operands are the wrapped command). */
const OPTIONS: Record<string, ProgramRecord['options']> = {
  sudo: {
    short: { u: V, g: V, C: V, D: R, h: V, p: V, r: V, t: V, T: V, U: V },
    long: {
      user: V,
      group: V,
      'close-from': V,
      chdir: R,
      host: V,
      prompt: V,
      role: V,
      type: V,
      'command-timeout': V,
      'other-user': V,
    },
    permute: false,
  },
  time: { short: { o: W, f: V }, long: { output: W, format: V }, permute: false },
  strace: {
    short: { o: W, e: V, O: V, p: V, P: V, s: V, S: V, u: V, I: V, b: V, X: V, E: V },
    long: { output: W, signal: V, trace: V },
    permute: false,
  },
  ltrace: {
    short: { o: W, e: V, O: V, p: V, s: V, u: V, a: V, A: V, n: V, D: V, l: V, x: V },
    permute: false,
  },
};

/** The wrapper records. */
export const WRAPPERS: readonly ProgramRecord[] = [
  ...Object.keys(SIMPLE).map(
    (name): ProgramRecord => ({
      names: [name],
      wrapper: simpleWrapper(name),
      ...(OPTIONS[name] ? { options: OPTIONS[name] } : {}),
      ...(name === 'sudo' || name === 'doas' ? { effect: 'write' as const } : {}),
    }),
  ),
  {
    names: ['env'],
    wrapper: unwrapEnv,
    effect: (call) => (call.args.length === 0 ? 'read' : 'write'),
    environment: (call) => call.args.length === 0,
    options: {
      short: { u: V, C: R, S: V },
      long: {
        unset: V,
        chdir: R,
        'split-string': V,
        'block-signal': V,
        'default-signal': V,
        'ignore-signal': V,
      },
      permute: false,
    },
  },
  { names: [...SHELLS], wrapper: unwrapShell, repositoryCode: shellScriptFile },
  { names: ['su', 'runuser'], wrapper: unwrapSu },
  {
    names: ['xargs'],
    wrapper: unwrapXargs,
    options: {
      short: { a: R, d: V, E: V, I: V, L: V, n: V, P: V, s: V },
      shortOptional: { i: V, e: V, l: V },
      long: {
        'arg-file': R,
        delimiter: V,
        replace: V,
        'max-lines': V,
        'max-args': V,
        'max-procs': V,
        'max-chars': V,
        'process-slot-var': V,
      },
      longOptional: { eof: V },
      permute: false,
    },
  },
  { names: ['flock'], wrapper: unwrapFlock },
  { names: ['watch'], wrapper: unwrapWatch },
  { names: ['eval'], wrapper: (args) => ({ inner: joinedScript(args, 'the eval string'), assignments: [] }) },
  { names: ['trap'], wrapper: unwrapTrap },
  { names: ['mapfile', 'readarray'], wrapper: unwrapMapfile },
  {
    names: ['alias'],
    wrapper: (args) => ({
      inner: args.flatMap((w) =>
        w.value?.includes('=')
          ? [{ kind: 'script' as const, script: w.value.slice(w.value.indexOf('=') + 1) }]
          : [],
      ),
      assignments: [],
    }),
  },
];

/** `bash script.sh`: a shell given a script file runs the repository's code. */
function shellScriptFile(call: { args: readonly ShellWord[] }): string | undefined {
  const scan = scanOptions(call.args, { short: 'oO', long: ['rcfile', 'init-file'] });
  if (scan.options.some((o) => o.name === '-c' || o.name === '-s')) return undefined;
  const file = call.args[scan.index]?.value;
  return file !== undefined && file !== '-' ? `the shell runs the script file ${file}` : undefined;
}
