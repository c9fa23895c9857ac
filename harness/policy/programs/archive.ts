/**
 * Archivers and copiers of trees: `tar` (old-style clusters `tar czf out dir`, members read when
 * creating, `-C` written when extracting, `-h` follows links), `zip` (recursive with `-r`,
 * following links unless `-y`), `unzip`, `rsync` (a network program whose last operand is the
 * destination; `-L`/`--copy-links` follows every link, `--copy-unsafe-links` those that leave
 * the tree), the compressors (`gzip`, `xz`, …: their operands are replaced). Sources: GNU tar
 * manual, zip(1), unzip(1), rsync(1).
 */
import { has, read, walk, write } from './helpers.ts';
import { scanProgramArgs, type OptionTable } from './options.ts';
import type { ProgramCall, ProgramEffects, ProgramRecord } from './types.ts';

const V = 'value' as const;
const R = 'read' as const;
const W = 'write' as const;

const TAR: OptionTable = {
  short: { f: V, C: V, T: R, X: R, I: 'program', F: 'script', g: W, K: V, N: V, V: V, b: V, H: V, L: V },
  long: {
    file: V,
    directory: V,
    'files-from': R,
    'exclude-from': R,
    'use-compress-program': 'program',
    'to-command': 'script',
    'info-script': 'script',
    'new-volume-script': 'script',
    'rsh-command': 'program',
    'checkpoint-action': V,
    'index-file': W,
    'listed-incremental': W,
    owner: V,
    group: V,
    mode: V,
    mtime: V,
    exclude: V,
    transform: V,
    xform: V,
    format: V,
    'blocking-factor': V,
    'record-size': V,
    'tape-length': V,
    label: V,
    'starting-file': V,
    'newer-mtime': V,
    newer: V,
    'after-date': V,
    'owner-map': R,
    'group-map': R,
  },
};

function tarOperands(call: ProgramCall, out: ProgramEffects): void {
  const { scan } = call;
  const names = new Set(scan.options.map((o) => o.name));
  const creates = [
    '-c',
    '-r',
    '-u',
    '-A',
    '--create',
    '--append',
    '--update',
    '--concatenate',
    '--catenate',
  ].some((n) => names.has(n));
  const extracts = ['-x', '--extract', '--get'].some((n) => names.has(n));
  for (const option of scan.options) {
    if (!option.value) continue;
    if (option.name === '-f' || option.name === '--file') {
      if (option.value.value !== '-')
        out.files.push({ word: option.value, access: creates ? 'write' : 'read' });
    } else if (option.name === '-C' || option.name === '--directory')
      out.files.push({ word: option.value, access: extracts ? 'write' : 'read' });
    else if (
      option.name === '--checkpoint-action' &&
      /^exec=/.test(option.value.value ?? option.value.text)
    ) {
      const script = option.value.value?.slice(5);
      out.runs.push(
        script !== undefined
          ? { kind: 'script', script }
          : {
              kind: 'unknown',
              rule: 'program:dynamic',
              reason: 'tar --checkpoint-action=exec= runs a command built from an expansion',
            },
      );
    }
  }
  if (creates) {
    out.files.push(...scan.operands.map(read));
    if (scan.operands.length > 0)
      out.walks.push(
        walk([...scan.operands], names.has('-h') || names.has('--dereference') ? 'all' : 'none', true),
      );
  }
  if (extracts && (names.has('-P') || names.has('--absolute-names')))
    out.runs.push({
      kind: 'unknown',
      rule: 'path:dynamic',
      reason:
        'tar -P extracts members to the absolute paths stored in the archive, which cannot be checked before it runs',
    });
}

function rsyncOperands(call: ProgramCall, out: ProgramEffects): void {
  const ops = call.scan.operands;
  if (ops.length >= 2) {
    const sources = ops.slice(0, -1);
    out.files.push(...sources.map(read), write(ops[ops.length - 1]!));
    if (has(call, '-r', '-a', '--recursive', '--archive'))
      out.walks.push(
        walk(
          sources,
          has(call, '-L', '--copy-links', '--copy-unsafe-links', '-k', '--copy-dirlinks') ? 'all' : 'none',
          true,
        ),
      );
  }
}

/** The archive records. */
export const ARCHIVE: readonly ProgramRecord[] = [
  {
    names: ['tar', 'gtar', 'bsdtar'],
    options: TAR,
    // Old style: `tar czf out.tgz dir`: the first word is a cluster of letters without a dash.
    scan: (args) => {
      const first = args[0]?.value;
      const words =
        first !== undefined && /^[A-Za-z]+$/.test(first)
          ? [{ ...args[0]!, text: `-${first}`, value: `-${first}` }, ...args.slice(1)]
          : args;
      return scanProgramArgs(words, TAR);
    },
    operands: tarOperands,
  },
  {
    names: ['zip'],
    options: {
      short: { b: W, t: V, n: V, x: V, i: V, P: V },
      long: { 'unzip-command': 'program', 'temp-path': W },
    },
    operands: (call, out) => {
      // `-TT CMD` (`--unzip-command`): the command zip runs to test the archive (zip(1)).
      const tt = call.args.findIndex((a) => a.value === '-TT');
      const command = tt >= 0 ? call.args[tt + 1] : undefined;
      if (command)
        out.runs.push(
          command.value !== undefined
            ? { kind: 'script', script: `${command.value} {}` }
            : {
                kind: 'unknown',
                rule: 'program:dynamic',
                reason: 'zip -TT runs a command built from an expansion',
              },
        );
      const ops = call.scan.operands.filter((w) => w !== command && w.value !== '-TT');
      if (ops[0]) out.files.push(write(ops[0]));
      out.files.push(...ops.slice(1).map(read));
      if (has(call, '-r', '-R', '--recurse-paths') && ops.length > 1)
        out.walks.push(walk(ops.slice(1), has(call, '-y', '--symlinks') ? 'none' : 'all', true));
    },
  },
  { names: ['unzip'], options: { short: { d: W, x: V, P: V } }, operands: 'read' },
  {
    names: ['rsync'],
    network: true,
    options: {
      short: { e: 'script', T: W },
      long: {
        rsh: 'script',
        'rsync-path': V,
        'log-file': W,
        'files-from': R,
        'exclude-from': R,
        'include-from': R,
        'password-file': R,
        'temp-dir': W,
        'backup-dir': W,
        'partial-dir': V,
        'compare-dest': V,
        'copy-dest': V,
        'link-dest': V,
        exclude: V,
        include: V,
        filter: V,
        'out-format': V,
        'log-file-format': V,
        chmod: V,
        chown: V,
        timeout: V,
        contimeout: V,
        port: V,
        sockopts: V,
        'write-batch': W,
        'only-write-batch': W,
        'read-batch': R,
      },
    },
    operands: rsyncOperands,
  },
  {
    names: ['gzip', 'gunzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'zstd', 'unzstd', 'lzma'],
    operands: 'write',
  },
];
