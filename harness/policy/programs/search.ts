/**
 * Search and tree programs: `grep` and its kin (the first operand is the pattern unless `-e`/`-f`
 * gives one), `rg`, `ag` and `ack` (recursive by default), `find` (start paths before the
 * expression; `-exec` is unwrapped by the wrapper record), `tree`. Each says which folders it
 * walks and which links it follows there: `grep -r` follows links named on the command line,
 * `grep -R` every link (GNU grep manual §2.1.6), `rg -L`, `ag -f`, `ack --follow`, `find -L`
 * (findutils §2.2), `tree -l`. Sources: GNU grep and findutils manuals, rg(1), ag(1), ack(1).
 */
import type { ShellWord } from '../shell-words.ts';
import { has, read, rootsOrDot, walk, write } from './helpers.ts';
import type { OptionTable } from './options.ts';
import type { ProgramCall, ProgramEffects, ProgramRecord } from './types.ts';

const V = 'value' as const;
const R = 'read' as const;
const W = 'write' as const;

const GREP: OptionTable = {
  short: { e: V, f: R, m: V, A: V, B: V, C: V, d: V, D: V },
  long: {
    regexp: V,
    file: R,
    'max-count': V,
    'after-context': V,
    'before-context': V,
    context: V,
    directories: V,
    devices: V,
    include: V,
    exclude: V,
    'exclude-dir': V,
    'exclude-from': R,
    label: V,
    'binary-files': V,
    'group-separator': V,
  },
  longOptional: { color: V, colour: V },
};

/** The operands after the pattern (all of them when an option gave the pattern). */
function afterPattern(call: ProgramCall, given: readonly string[]): ShellWord[] {
  return has(call, ...given) ? [...call.scan.operands] : call.scan.operands.slice(1);
}

function grepOperands(call: ProgramCall, out: ProgramEffects): void {
  const files = afterPattern(call, ['-e', '-f', '--regexp', '--file']);
  out.files.push(...files.map(read));
  const directories = call.scan.options.find((o) => o.name === '-d' || o.name === '--directories')?.value;
  const all = has(call, '-R', '--dereference-recursive');
  if (all || has(call, '-r', '--recursive') || directories?.value === 'recurse')
    out.walks.push(walk(rootsOrDot(files), all ? 'all' : 'roots', true));
}

/** The search records. */
export const SEARCH: readonly ProgramRecord[] = [
  { names: ['grep', 'egrep', 'fgrep'], effect: 'read', options: GREP, operands: grepOperands },
  { names: ['zgrep'], options: GREP, operands: grepOperands },
  {
    names: ['rg'],
    effect: 'read',
    options: {
      short: { e: V, f: R, A: V, B: V, C: V, m: V, M: V, j: V, t: V, T: V, g: V, E: V, r: V, d: V },
      long: {
        regexp: V,
        file: R,
        glob: V,
        iglob: V,
        type: V,
        'type-not': V,
        'type-add': V,
        'type-clear': V,
        'max-count': V,
        'max-columns': V,
        threads: V,
        'max-depth': V,
        encoding: V,
        replace: V,
        sort: V,
        sortr: V,
        colors: V,
        'context-separator': V,
        'field-match-separator': V,
        'field-context-separator': V,
        'path-separator': V,
        'max-filesize': V,
        'dfa-size-limit': V,
        'regex-size-limit': V,
        engine: V,
        'ignore-file': R,
        pre: 'program',
        'pre-glob': V,
        'hostname-bin': 'program',
        'hyperlink-format': V,
        generate: V,
        'after-context': V,
        'before-context': V,
        context: V,
      },
    },
    operands: (call, out) => {
      if (has(call, '--type-list', '--generate')) return;
      const files = afterPattern(call, ['-e', '-f', '--regexp', '--file', '--files']);
      out.files.push(...files.map(read));
      out.walks.push(
        walk(rootsOrDot(files), has(call, '-L', '--follow') ? 'all' : 'roots', !has(call, '--files')),
      );
    },
  },
  {
    names: ['ag'],
    effect: 'read',
    options: {
      short: { A: V, B: V, C: V, G: V, g: V, m: V, p: R },
      long: {
        'file-search-regex': V,
        ignore: V,
        'ignore-dir': V,
        depth: V,
        'max-count': V,
        path_to_ignore: R,
        'path-to-ignore': R,
        pager: 'program',
      },
    },
    operands: (call, out) => {
      const files = afterPattern(call, ['-g']);
      out.files.push(...files.map(read));
      out.walks.push(
        walk(rootsOrDot(files), has(call, '-f', '--follow') ? 'all' : 'roots', !has(call, '-g')),
      );
    },
  },
  {
    names: ['ack'],
    options: {
      short: { A: V, B: V, C: V, m: V, t: V },
      long: {
        'ignore-dir': V,
        'ignore-file': V,
        type: V,
        'max-count': V,
        pager: 'program',
        output: V,
        match: V,
      },
    },
    operands: (call, out) => {
      const files = afterPattern(call, ['-f', '-g', '--match']);
      out.files.push(...files.map(read));
      out.walks.push(walk(rootsOrDot(files), has(call, '--follow') ? 'all' : 'roots', !has(call, '-f')));
    },
  },
  {
    names: ['find'],
    effect: (call) =>
      call.args.some((a) =>
        /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/.test(a.value ?? a.text),
      )
        ? 'write'
        : 'read',
    scan: (args) => ({ options: [], operands: [...args] }),
    operands: findOperands,
  },
  {
    names: ['tree'],
    effect: 'read',
    options: {
      short: { L: V, P: V, I: V, o: W, H: V, T: V },
      long: { filelimit: V, timefmt: V, charset: V, sort: V, fromfile: V },
    },
    operands: (call, out) => {
      out.files.push(...call.scan.operands.map(read));
      out.walks.push(walk(rootsOrDot(call.scan.operands), has(call, '-l') ? 'all' : 'none', false));
    },
  },
];

const FIND_VALUE =
  /^-(i?name|i?path|i?wholename|i?regex|i?lname|x?type|user|group|uid|gid|perm|size|[amc]time|[amc]min|used|links|inum|(max|min)depth|fstype|printf|context|regextype|D)$/;

/** `find`: start paths come before the expression; `-fprint` and friends write, `-newer` reads, `-delete` writes the starts. */
function findOperands(call: ProgramCall, out: ProgramEffects): void {
  const args = call.args;
  let i = 0;
  let follows: 'all' | 'roots' | 'none' = 'none';
  while (i < args.length && /^-([HLP]|O\d*)$/.test(args[i]!.value ?? '')) {
    const v = args[i]!.value;
    if (v === '-L') follows = 'all';
    else if (v === '-H') follows = 'roots';
    else if (v === '-P') follows = 'none';
    i += 1;
  }
  if (args[i]?.value === '-D') i += 2;
  const starts: ShellWord[] = [];
  while (i < args.length && !/^([-(!),]|\\\(|\\!)/.test(args[i]!.value ?? '')) starts.push(args[i++]!);
  let deletes = false;
  for (; i < args.length; i += 1) {
    const value = args[i]!.value;
    const next = args[i + 1];
    if (value === '-exec' || value === '-execdir' || value === '-ok' || value === '-okdir') {
      // The command is unwrapped by the wrapper record; skip to its terminator.
      while (i < args.length && args[i]!.value !== ';' && args[i]!.value !== '+') i += 1;
    } else if (value === '-fprint' || value === '-fprint0' || value === '-fls' || value === '-fprintf') {
      if (next) out.files.push(write(next));
      i += value === '-fprintf' ? 2 : 1;
    } else if (
      value === '-newer' ||
      value === '-anewer' ||
      value === '-cnewer' ||
      value === '-samefile' ||
      value === '-files0-from'
    ) {
      if (next) out.files.push(read(next));
      i += 1;
    } else if (value !== undefined && /^-newer[amcB][amcBt]$/.test(value)) {
      if (next && !value.endsWith('t')) out.files.push(read(next));
      i += 1;
    } else if (value === '-delete') deletes = true;
    else if (value === '-follow') follows = 'all';
    else if (value !== undefined && FIND_VALUE.test(value)) i += 1;
  }
  for (const start of starts) out.files.push(deletes ? write(start) : read(start));
  out.walks.push(walk(rootsOrDot(starts), follows, false, deletes ? 'write' : 'read'));
}
