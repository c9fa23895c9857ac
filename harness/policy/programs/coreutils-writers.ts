/**
 * The coreutils that change files (`coreutils.ts` holds the readers): writers (`tee`, `touch`,
 * `mkdir`, `rm`, `truncate`), `patch`, mode and owner changers (recursive with `-R`), copiers
 * with a destination (`cp`, `mv`, `ln`, `install`) and `dd`. Options from the GNU coreutils
 * manual.
 */
import type { ShellWord } from '../shell-words.ts';
import { has, read, sliced, walk, write } from './helpers.ts';
import type { OptionTable } from './options.ts';
import type { ProgramCall, ProgramEffects, ProgramRecord } from './types.ts';

const V = 'value' as const;
const R = 'read' as const;
const W = 'write' as const;

/** A chmod mode (`755`, `u+x`, `go-w,a+r`): chmod's first operand, not a file. */
const MODE =
  /^([ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=]?[0-7]+)(,([ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=]?[0-7]+))*$/;
const COPY: OptionTable = {
  short: { t: W, S: V },
  long: { 'target-directory': W, suffix: V, sparse: V },
  longOptional: { backup: V, reflink: V, preserve: V, 'no-preserve': V, context: V },
};

/** Which links a `-R` walk of chmod, chown and chgrp follows (`-L` all, `-H` the roots, `-P` none, the default). */
function modeWalkFollows(call: ProgramCall): 'all' | 'roots' | 'none' {
  let follows: 'all' | 'roots' | 'none' = 'none';
  for (const o of call.scan.options)
    if (o.name === '-L') follows = 'all';
    else if (o.name === '-H') follows = 'roots';
    else if (o.name === '-P') follows = 'none';
  return follows;
}

/** `cp`, `mv`, `install`, `ln`: the last operand (or `-t DIR`) is written, the others read; `cp -r` walks its sources. */
function destinationOperands(call: ProgramCall, out: ProgramEffects): void {
  const ops = call.scan.operands;
  let sources: ShellWord[] = [];
  if (has(call, '-t', '--target-directory')) sources = [...ops];
  else if (ops.length >= 2) sources = ops.slice(0, -1);
  out.files.push(...sources.map(read));
  if (!has(call, '-t', '--target-directory') && ops.length >= 2) out.files.push(write(ops[ops.length - 1]!));
  if (
    call.program === 'cp' &&
    has(call, '-r', '-R', '-a', '--recursive', '--archive') &&
    sources.length > 0
  ) {
    const follows = has(call, '-L', '--dereference') ? 'all' : has(call, '-H') ? 'roots' : 'none';
    out.walks.push(walk(sources, follows, true));
  }
}

/** The records of the coreutils that write, delete or change files. */
export const COREUTILS_WRITERS: readonly ProgramRecord[] = [
  // Writers: every operand is a file written or deleted.
  { names: ['tee'], operands: 'write', options: { longOptional: { 'output-error': V } } },
  {
    names: ['touch'],
    operands: 'write',
    options: { short: { r: R, d: V, t: V }, long: { reference: R, date: V, time: V } },
  },
  {
    names: ['mkdir'],
    operands: 'write',
    options: { short: { m: V }, long: { mode: V }, longOptional: { context: V } },
  },
  { names: ['mkfifo'], operands: 'write', options: { short: { m: V }, long: { mode: V } } },
  {
    names: ['rm'],
    effect: 'irreversible',
    operands: (call, out) => {
      out.files.push(...call.scan.operands.map(write));
      if (has(call, '-r', '-R', '--recursive') && call.scan.operands.length > 0)
        out.walks.push(walk([...call.scan.operands], 'none', false, 'write'));
    },
  },
  { names: ['rmdir', 'unlink'], effect: 'irreversible', operands: 'write' },
  {
    names: ['shred'],
    effect: 'irreversible',
    operands: 'write',
    options: { short: { n: V, s: V }, long: { iterations: V, size: V, 'random-source': R } },
  },
  {
    names: ['truncate'],
    effect: 'irreversible',
    operands: 'write',
    options: { short: { r: R, s: V }, long: { reference: R, size: V } },
  },
  { names: ['dos2unix', 'unix2dos'], operands: 'write' },
  {
    names: ['patch'],
    options: {
      short: { o: W, i: R, r: W, B: V, p: V, D: V, F: V, z: V, V: V, Y: V, d: V },
      long: {
        output: W,
        input: R,
        'reject-file': W,
        prefix: V,
        strip: V,
        ifdef: V,
        fuzz: V,
        suffix: V,
        'version-control': V,
        directory: V,
      },
    },
    operands: (call, out) => {
      const ops = call.scan.operands;
      if (ops[0]) out.files.push(write(ops[0]));
      if (ops[1]) out.files.push(read(ops[1]));
    },
  },
  ...(['chown', 'chgrp'] as const).map(
    (name): ProgramRecord => ({
      names: [name],
      options: name === 'chown' ? { long: { reference: R, from: V } } : { long: { reference: R } },
      operands: (call, out) => {
        // The first operand is the owner or group (unless --reference gives it).
        const ops = has(call, '--reference') ? call.scan.operands : call.scan.operands.slice(1);
        out.files.push(...ops.map(write));
        if (has(call, '-R', '--recursive') && ops.length > 0)
          out.walks.push(walk([...ops], modeWalkFollows(call), false, 'write'));
      },
    }),
  ),
  {
    names: ['chmod'],
    options: { long: { reference: R } },
    operands: (call, out) => {
      // The mode comes first (`chmod 755 f`, `chmod -R u+x d`); every other operand is a file changed.
      const files = call.scan.operands.filter((w) => !MODE.test(w.value ?? w.text));
      out.files.push(...files.map(write));
      if (has(call, '-R', '--recursive') && files.length > 0)
        out.walks.push(walk(files, modeWalkFollows(call), false, 'write'));
    },
  },
  { names: ['cp', 'mv', 'ln'], options: COPY, operands: destinationOperands },
  {
    names: ['install'],
    options: {
      ...COPY,
      short: { ...COPY.short, m: V, o: V, g: V },
      long: { ...COPY.long, mode: V, owner: V, group: V, 'strip-program': 'program' },
    },
    operands: destinationOperands,
  },
  {
    names: ['dd'],
    effect: 'irreversible',
    scan: (args) => ({ options: [], operands: [...args] }),
    operands: (call, out) => {
      for (const a of call.args) {
        const v = a.value ?? a.text;
        if (v.startsWith('of=')) out.files.push(write(sliced(a, 3)));
        else if (v.startsWith('if=')) out.files.push(read(sliced(a, 3)));
      }
    },
  },
];
