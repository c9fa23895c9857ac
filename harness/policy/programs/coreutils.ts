/**
 * GNU coreutils and their kin: readers of files (`cat`, `head`, `sort`, checksums), writers
 * (`touch`, `tee`, `mkdir`, `rm`), copiers with a destination (`cp`, `mv`, `ln`, `install`),
 * mode and owner changers (recursive with `-R`), `dd`, and the small read-only utilities
 * (`pwd`, `date`, `seq`). Options from the GNU coreutils manual. The records of the ones that
 * change files are in `coreutils-writers.ts`.
 */
import type { ShellWord } from '../shell-words.ts';
import { COREUTILS_WRITERS } from './coreutils-writers.ts';
import { has, read, rootsOrDot, walk, write, readName } from './helpers.ts';
import type { OptionTable } from './options.ts';
import type { ProgramEffects, ProgramRecord } from './types.ts';

const V = 'value' as const;
const R = 'read' as const;
const W = 'write' as const;

const SUMS: OptionTable = {};

const reader = (
  names: string[],
  options?: OptionTable,
  effect: 'read' | 'write' = 'read',
): ProgramRecord => ({
  names,
  ...(options ? { options } : {}),
  operands: 'read',
  effect,
});

/** The coreutils records. */
export const COREUTILS: readonly ProgramRecord[] = [
  reader(['cat', 'tr', 'paste', 'comm', 'join']),
  reader(['fold', 'fmt', 'expand', 'unexpand', 'column', 'realpath']),
  // readlink prints where a link points: a name, not the content behind it.
  {
    names: ['readlink'],
    effect: 'read',
    operands: (call, out) => out.files.push(...call.scan.operands.map(readName)),
  },
  reader(['md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'cksum'], SUMS),
  reader(
    ['sha224sum', 'sha384sum', 'b2sum', 'sum', 'shasum', 'md5', 'rev', 'dir', 'vdir', 'pr'],
    SUMS,
    'write',
  ),
  reader(
    ['zcat', 'zless', 'zmore', 'bzcat', 'xzcat', 'zstdcat', 'lzcat', 'bat', 'batcat'],
    undefined,
    'write',
  ),
  { ...reader(['tac']), options: { short: { s: V }, long: { separator: V } } },
  { ...reader(['base64']), options: { short: { w: V }, long: { wrap: V } } },
  {
    ...reader(['nl']),
    options: {
      short: { b: V, d: V, f: V, h: V, i: V, l: V, n: V, s: V, v: V, w: V },
      long: {
        'body-numbering': V,
        'section-delimiter': V,
        'footer-numbering': V,
        'header-numbering': V,
        'line-increment': V,
        'join-blank-lines': V,
        'number-format': V,
        'number-separator': V,
        'starting-line-number': V,
        'number-width': V,
      },
    },
  },
  {
    ...reader(['od']),
    options: {
      short: { A: V, j: V, N: V, S: V, t: V, w: V },
      long: { 'address-radix': V, 'skip-bytes': V, 'read-bytes': V, strings: V, format: V },
      longOptional: { width: V },
    },
  },
  { ...reader(['hexdump']), options: { short: { e: V, f: R, n: V, s: V } } },
  {
    ...reader(['strings']),
    options: { short: { n: V, t: V, e: V, T: V }, long: { bytes: V, radix: V, encoding: V, target: V } },
  },
  { ...reader(['wc']), options: { long: { 'files0-from': R } } },
  {
    ...reader(['cut']),
    options: {
      short: { b: V, c: V, f: V, d: V },
      long: { bytes: V, characters: V, fields: V, delimiter: V, 'output-delimiter': V },
    },
  },
  {
    names: ['ls'],
    effect: 'read',
    operands: (call, out) => {
      // With -l, -d or -F a link given as an operand is listed itself, not followed (GNU ls).
      const names =
        has(call, '-l', '-d', '-F', '--directory', '--classify', '-g', '-o', '-n') &&
        !has(call, '-L', '--dereference', '-H', '--dereference-command-line');
      out.files.push(...call.scan.operands.map(names ? readName : read));
      if (has(call, '-R', '--recursive'))
        out.walks.push(
          walk(
            rootsOrDot(call.scan.operands),
            has(call, '-L', '--dereference')
              ? 'all'
              : has(call, '-H', '--dereference-command-line')
                ? 'roots'
                : 'none',
            false,
          ),
        );
    },
    options: {
      short: { I: V, T: V, w: V },
      long: {
        ignore: V,
        hide: V,
        tabsize: V,
        width: V,
        format: V,
        sort: V,
        time: V,
        'time-style': V,
        'quoting-style': V,
        'indicator-style': V,
        'block-size': V,
      },
      longOptional: { color: V, hyperlink: V },
    },
  },
  {
    ...reader(['head']),
    options: { short: { n: V, c: V }, long: { lines: V, bytes: V }, numeric: true },
  },
  {
    ...reader(['tail']),
    options: {
      short: { n: V, c: V, s: V },
      long: { lines: V, bytes: V, 'sleep-interval': V, pid: V, 'max-unchanged-stats': V },
      numeric: true,
    },
  },
  {
    ...reader(['sort']),
    options: {
      short: { k: V, t: V, S: V, T: W, o: W },
      long: {
        key: V,
        'field-separator': V,
        'buffer-size': V,
        'temporary-directory': W,
        output: W,
        'files0-from': R,
        'compress-program': 'program',
        parallel: V,
        'batch-size': V,
        'random-source': R,
        sort: V,
      },
    },
  },
  {
    names: ['uniq'],
    effect: 'read',
    options: {
      short: { f: V, s: V, w: V },
      long: { 'skip-fields': V, 'skip-chars': V, 'check-chars': V },
      longOptional: { group: V, 'all-repeated': V },
    },
    operands: (call, out) => inOut(call.scan.operands, out),
  },
  {
    names: ['diff'],
    effect: 'read',
    options: {
      short: { C: V, U: V, I: V, x: V, X: R, F: V, L: V, D: V, S: V, W: V },
      long: {
        'ignore-matching-lines': V,
        exclude: V,
        'exclude-from': R,
        label: V,
        'show-function-line': V,
        ifdef: V,
        'starting-file': V,
        width: V,
        tabsize: V,
        'from-file': R,
        'to-file': R,
        'line-format': V,
        'old-line-format': V,
        'new-line-format': V,
        'unchanged-line-format': V,
        'old-group-format': V,
        'new-group-format': V,
        'changed-group-format': V,
        'unchanged-group-format': V,
        'horizon-lines': V,
        palette: V,
      },
      longOptional: { context: V, unified: V, color: V },
    },
    operands: (call, out) => {
      out.files.push(...call.scan.operands.map(read));
      // `diff -r` compares trees and follows links unless --no-dereference.
      if (has(call, '-r', '--recursive') && call.scan.operands.length > 0)
        out.walks.push(walk([...call.scan.operands], has(call, '--no-dereference') ? 'none' : 'all', true));
    },
  },
  {
    names: ['cmp'],
    effect: 'read',
    options: { short: { i: V, n: V }, long: { 'ignore-initial': V, bytes: V } },
    operands: (call, out) => out.files.push(...call.scan.operands.slice(0, 2).map(read)),
  },
  {
    ...reader(['file']),
    options: {
      short: { m: R, f: R, F: V, e: V, P: V },
      long: { 'magic-file': R, 'files-from': R, separator: V, exclude: V, 'exclude-quiet': V, parameter: V },
    },
  },
  {
    ...reader(['stat']),
    options: { short: { c: V }, long: { format: V, printf: V } },
    // stat describes a link itself unless -L follows it.
    operands: (call, out) =>
      out.files.push(...call.scan.operands.map(has(call, '-L', '--dereference') ? read : readName)),
  },
  {
    names: ['du'],
    effect: 'read',
    options: {
      short: { B: V, d: V, t: V, X: R },
      long: {
        'block-size': V,
        'max-depth': V,
        threshold: V,
        exclude: V,
        'exclude-from': R,
        'files0-from': R,
        'time-style': V,
      },
      longOptional: { time: V },
    },
    operands: (call, out) => {
      // du counts a link given as an operand itself unless -L, -D or -H follows it.
      out.files.push(
        ...call.scan.operands.map(
          has(call, '-L', '--dereference', '-D', '-H', '--dereference-args') ? read : readName,
        ),
      );
      out.walks.push(
        walk(
          rootsOrDot(call.scan.operands),
          has(call, '-L', '--dereference')
            ? 'all'
            : has(call, '-D', '-H', '--dereference-args')
              ? 'roots'
              : 'none',
          false,
        ),
      );
    },
  },
  {
    names: ['xxd'],
    effect: 'read',
    options: { short: { c: V, g: V, l: V, o: V, s: V, n: V } },
    operands: (call, out) => inOut(call.scan.operands, out),
  },
  {
    names: ['shuf'],
    options: {
      short: { n: V, o: W, i: V },
      long: { 'head-count': V, output: W, 'input-range': V, 'random-source': R },
    },
    operands: 'read',
  },
  {
    names: ['iconv'],
    options: { short: { f: V, t: V, o: W }, long: { 'from-code': V, 'to-code': V, output: W } },
    operands: 'read',
  },
  {
    names: ['split'],
    options: {
      short: { a: V, b: V, C: V, l: V, n: V, t: V },
      long: {
        'suffix-length': V,
        bytes: V,
        'line-bytes': V,
        lines: V,
        number: V,
        separator: V,
        'additional-suffix': V,
        filter: 'script',
      },
      longOptional: { 'numeric-suffixes': V, 'hex-suffixes': V },
    },
    operands: (call, out) => inOut(call.scan.operands, out),
  },
  ...COREUTILS_WRITERS,
  // Read-only utilities without file operands.
  {
    names: [
      'pwd',
      'true',
      'false',
      'which',
      'type',
      'whoami',
      'id',
      'uname',
      'date',
      'df',
      'basename',
      'dirname',
      'seq',
      'sleep',
      'hostname',
      'locale',
      'ps',
    ],
    effect: 'read',
  },
  {
    names: ['mkfs', 'wipefs', 'kill', 'killall', 'pkill', 'shutdown', 'reboot', 'crontab'],
    effect: 'irreversible',
  },
];

/** `uniq IN OUT`, `xxd IN OUT`, `split IN PREFIX`: the first operand read, the second written. */
function inOut(ops: readonly ShellWord[], out: ProgramEffects): void {
  if (ops[0]) out.files.push(read(ops[0]));
  if (ops[1]) out.files.push(write(ops[1]));
}
