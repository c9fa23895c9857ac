/**
 * The files a simple command reads and writes, and the commands it runs through its options: a
 * best effort over well-known programs, so that the path policy sees `grep x /etc/shadow`,
 * `ls ~/.ssh`, `git diff --output=/etc/x` and `find . -fprint /etc/passwd` like it sees
 * `cat /etc/shadow`, and the analysis sees `git difftool -x 'rm x'`. The option values come from
 * the options table (`program-options.ts`); which operands are files is decided here per program
 * (grep's first operand is its pattern unless `-e`/`-f` gives one, sed's and awk's is their
 * script, `uniq IN OUT` writes OUT, find's start paths come before its expression).
 */
import {
  GIT_GLOBAL,
  GIT_OPTIONS,
  optionTable,
  scanned,
  scanProgramArgs,
  type OptionTable,
  type ProgramScan,
} from './program-options.ts';
import { awkProgramRisk, sedScriptEffects } from './script-programs.ts';
import type { ShellWord } from './shell-words.ts';

/** A file argument of a command. */
export interface FileArgument {
  word: ShellWord;
  access: 'read' | 'write';
}

/** A command a program runs because of its options: a script to analyse, or something unknowable (ask). */
export type ProgramRun =
  | { kind: 'script'; script: string }
  /** A command given as words (`python -m pytest …` runs `pytest …`). */
  | { kind: 'argv'; words: ShellWord[] }
  | { kind: 'unknown'; rule: 'program:runs-command' | 'program:dynamic' | 'path:dynamic'; reason: string };

/** What a command does beyond its own program: files it reads and writes, commands it runs. */
export interface ProgramEffects {
  files: FileArgument[];
  runs: ProgramRun[];
}

/** Programs whose operands are all files they read. */
const READS_OPERANDS = new Set([
  'cat',
  'head',
  'tail',
  'nl',
  'tac',
  'base64',
  'od',
  'hexdump',
  'strings',
  'wc',
  'md5sum',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'b2sum',
  'cksum',
  'diff',
  'ls',
  'sort',
  'cut',
  'file',
  'stat',
  'du',
  'tree',
  'paste',
  'comm',
  'join',
  'fold',
  'fmt',
  'expand',
  'unexpand',
  'column',
  'rev',
  'tr',
  'readlink',
  'realpath',
  'dir',
  'vdir',
  'zcat',
  'zless',
  'zmore',
  'bzcat',
  'xzcat',
  'zstdcat',
  'lzcat',
  'bat',
  'batcat',
  'shuf',
  'pr',
  'iconv',
  'sum',
  'shasum',
  'md5',
  'unzip',
]);
/** Programs whose first operand is a pattern or filter and the rest are files they read (unless an option gives the pattern). */
const PATTERN_FIRST: Record<string, string[]> = {
  grep: ['-e', '-f', '--regexp', '--file'],
  egrep: ['-e', '-f', '--regexp', '--file'],
  fgrep: ['-e', '-f', '--regexp', '--file'],
  zgrep: ['-e', '-f', '--regexp', '--file'],
  rg: ['-e', '-f', '--regexp', '--file', '--files', '--type-list'],
  ag: ['-g', '-G', '--file-search-regex', '-f'],
  ack: ['-f', '-g', '--match'],
  yq: [],
};
/** A chmod mode (`755`, `u+x`, `go-w,a+r`): chmod's first operand, not a file. */
const MODE =
  /^([ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=]?[0-7]+)(,([ugoa]*([-+=]([rwxXst]*|[ugo]))+|[-+=]?[0-7]+))*$/;
/** Programs whose operands are files they write or delete. */
const WRITES_OPERANDS = new Set([
  'tee',
  'touch',
  'mkdir',
  'rm',
  'rmdir',
  'unlink',
  'shred',
  'truncate',
  'mkfifo',
  'vim',
  'vi',
  'nvim',
  'view',
  'ex',
  'gvim',
  'nano',
  'emacs',
  'chown',
  'chgrp',
  'dos2unix',
  'unix2dos',
  'gzip',
  'gunzip',
  'bzip2',
  'bunzip2',
  'xz',
  'unxz',
  'zstd',
  'unzstd',
  'lzma',
]);
/** Programs whose last operand (or `-t DIR`) is the destination they write. */
const WRITES_DESTINATION = new Set(['cp', 'mv', 'install', 'ln', 'rsync']);
/** Programs whose `-o FILE` is their output file. */
const COMPILERS = new Set(['cc', 'gcc', 'g++', 'c++', 'clang', 'clang++', 'ld', 'as', 'tcc']);
/** Wrappers: their operands are the wrapped command, only their options name files. */
const WRAPPERS = new Set(['time', 'strace', 'ltrace', 'xargs', 'env', 'sudo']);

const literal = (value: string): ShellWord => ({
  text: value,
  value,
  substitutions: [],
  expands: false,
  plain: false,
});
const read = (word: ShellWord): FileArgument => ({ word, access: 'read' });
const write = (word: ShellWord): FileArgument => ({ word, access: 'write' });
const sliced = (word: ShellWord, from: number): ShellWord => ({
  ...word,
  text: (word.value ?? word.text).slice(from),
  ...(word.value !== undefined ? { value: word.value.slice(from) } : {}),
});

/** The files and commands named by option values. */
function optionEffects(scan: ProgramScan, table: OptionTable, program: string, out: ProgramEffects): void {
  for (const option of scan.options) {
    if (option.role === undefined || option.role === 'value') continue;
    const value = option.value;
    if (!value) continue;
    if (option.role === 'read' || option.role === 'write') {
      if (value.value !== '-') out.files.push({ word: value, access: option.role });
      continue;
    }
    if (value.value === undefined) {
      out.runs.push({
        kind: 'unknown',
        rule: 'program:dynamic',
        reason: `the command ${program} ${option.name} runs is built from an expansion (${value.text})`,
      });
      continue;
    }
    // A program run by name gets arguments of its own (the file, `-d`): shown as `{}` like xargs.
    out.runs.push({ kind: 'script', script: option.role === 'program' ? `${value.value} {}` : value.value });
  }
  for (const option of scan.options) {
    const reason = table.runs?.[option.name];
    if (reason)
      out.runs.push({
        kind: 'unknown',
        rule: 'program:runs-command',
        reason: `${program} ${option.name}: ${reason}`,
      });
  }
}

/** The operands that are files for programs with a pattern or script first. */
function afterFirst(scan: ProgramScan, given: boolean): ShellWord[] {
  return given ? scan.operands : scan.operands.slice(1);
}

function findEffects(args: readonly ShellWord[], out: ProgramEffects): void {
  let i = 0;
  while (i < args.length && /^-([HLP]|O\d*)$/.test(args[i]!.value ?? '')) i += 1;
  if (args[i]?.value === '-D') i += 2;
  const starts: ShellWord[] = [];
  while (i < args.length && !/^([-(!),]|\\\(|\\!)/.test(args[i]!.value ?? '')) starts.push(args[i++]!);
  const VALUE =
    /^-(i?name|i?path|i?wholename|i?regex|i?lname|x?type|user|group|uid|gid|perm|size|[amc]time|[amc]min|used|links|inum|(max|min)depth|fstype|printf|context|regextype|D)$/;
  let deletes = false;
  for (; i < args.length; i += 1) {
    const value = args[i]!.value;
    const next = args[i + 1];
    if (value === '-exec' || value === '-execdir' || value === '-ok' || value === '-okdir') {
      // The command is unwrapped by shell-wrappers.ts; skip to its terminator.
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
    else if (value !== undefined && VALUE.test(value)) i += 1;
  }
  for (const start of starts) out.files.push(deletes ? write(start) : read(start));
}

function tarEffects(args: readonly ShellWord[], table: OptionTable, out: ProgramEffects): void {
  // Old style: `tar czf out.tgz dir`: the first word is a cluster of letters without a dash.
  let words = args;
  const first = args[0]?.value;
  if (first !== undefined && /^[A-Za-z]+$/.test(first))
    words = [{ ...args[0]!, text: `-${first}`, value: `-${first}` }, ...args.slice(1)];
  const scan = scanProgramArgs(words, table);
  optionEffects(scan, table, 'tar', out);
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
  if (creates) out.files.push(...scan.operands.map(read));
  if (extracts && (names.has('-P') || names.has('--absolute-names')))
    out.runs.push({
      kind: 'unknown',
      rule: 'path:dynamic',
      reason:
        'tar -P extracts members to the absolute paths stored in the archive, which cannot be checked before it runs',
    });
}

function gitEffects(args: readonly ShellWord[], out: ProgramEffects): void {
  const sub = args[0]?.value;
  // Global options first (`git -C x diff`): the folders they name are reads; shell-wrappers.ts unwraps the subcommand as a part of its own.
  if (sub?.startsWith('-')) {
    optionEffects(scanProgramArgs(args, GIT_GLOBAL), GIT_GLOBAL, 'git', out);
    return;
  }
  if (sub === undefined) return;
  const table = GIT_OPTIONS[sub];
  if (!table) return;
  const scan = scanProgramArgs(args.slice(1), table);
  optionEffects(scan, table, `git ${sub}`, out);
  const operands = scan.operands;
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
    case 'config': {
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
      // Setting core.pager, core.fsmonitor, diff.external or an alias makes later git commands run programs.
      const file = scan.options.find((o) => o.name === '-f' || o.name === '--file')?.value;
      const target =
        file ??
        literal(
          modes.has('--global') ? '~/.gitconfig' : modes.has('--system') ? '/etc/gitconfig' : '.git/config',
        );
      if (writes) out.files.push(write(target));
      else if (file) out.files.push(read(file));
      break;
    }
    case 'clone':
      if (operands.length >= 2) out.files.push(write(operands[1]!));
      break;
    case 'init':
      if (operands[0]) out.files.push(write(operands[0]));
      break;
    case 'apply':
    case 'am':
    case 'hash-object':
      out.files.push(...operands.map(read));
      break;
    default:
      break;
  }
}

/** Operands of a program in the options table, by program. */
function operandFiles(
  program: string,
  scan: ProgramScan,
  args: readonly ShellWord[],
  out: ProgramEffects,
): void {
  const ops = scan.operands;
  const has = (...names: string[]) => scanned(scan, ...names);
  switch (program) {
    case 'chmod':
      // The mode comes first (`chmod 755 f`, `chmod -R u+x d`); every other operand is a file changed.
      out.files.push(...ops.filter((w) => !MODE.test(w.value ?? w.text)).map(write));
      return;
    case 'zip':
      if (ops[0]) out.files.push(write(ops[0]));
      out.files.push(...ops.slice(1).map(read));
      return;
    case 'patch':
      if (ops[0]) out.files.push(write(ops[0]));
      if (ops[1]) out.files.push(read(ops[1]));
      return;
    case 'cmp':
      out.files.push(...ops.slice(0, 2).map(read));
      return;
    case 'uniq':
    case 'xxd':
    case 'split':
      if (ops[0]) out.files.push(read(ops[0]));
      if (ops[1]) out.files.push(write(ops[1]));
      return;
    case 'less':
    case 'more':
      for (const op of ops) {
        const v = op.value ?? op.text;
        if (!v.startsWith('+')) out.files.push(read(op));
        else if (/[!|]/.test(v))
          out.runs.push({
            kind: 'unknown',
            rule: 'program:runs-command',
            reason: `${program} ${v}: an initial command with ! or | runs a shell command`,
          });
      }
      return;
    case 'jq': {
      const cut = args.findIndex((a) => a.value === '--args' || a.value === '--jsonargs');
      const files = cut >= 0 ? scanProgramArgs(args.slice(0, cut), optionTable('jq')!).operands : ops;
      out.files.push(
        ...afterFirst({ options: scan.options, operands: files }, has('-f', '--from-file')).map(read),
      );
      return;
    }
    case 'awk':
    case 'gawk':
    case 'mawk':
    case 'nawk': {
      const given = has('-f', '--file', '-E', '--exec');
      const sources = [
        ...scan.options.filter((o) => o.name === '--source').map((o) => o.value),
        ...(given || has('--source') ? [] : [ops[0]]),
      ];
      for (const source of sources) {
        if (!source) continue;
        const risk =
          source.value === undefined
            ? 'the awk program is built from an expansion'
            : awkProgramRisk(source.value);
        if (risk)
          out.runs.push({ kind: 'unknown', rule: 'program:runs-command', reason: `${program}: ${risk}` });
      }
      if (given)
        out.runs.push({
          kind: 'unknown',
          rule: 'program:runs-command',
          reason: `${program} -f: the awk program is read from a file, so what it runs or writes cannot be checked`,
        });
      const files = given || has('--source') ? ops : ops.slice(1);
      out.files.push(...files.filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.value ?? w.text)).map(read));
      return;
    }
    case 'sed': {
      const scripts = scan.options
        .filter((o) => o.name === '-e' || o.name === '--expression')
        .map((o) => o.value);
      const fromFile = has('-f', '--file');
      if (scripts.length === 0 && !fromFile) scripts.push(ops[0]);
      const inPlace = has('-i', '--in-place');
      if (!has('--sandbox')) {
        for (const script of scripts) {
          if (!script) continue;
          if (script.value === undefined) {
            out.runs.push({
              kind: 'unknown',
              rule: 'program:dynamic',
              reason: 'the sed script is built from an expansion',
            });
            continue;
          }
          const effects = sedScriptEffects(script.value);
          for (const file of effects.reads) out.files.push(read(literal(file)));
          for (const file of effects.writes) out.files.push(write(literal(file)));
          if (effects.risk)
            out.runs.push({ kind: 'unknown', rule: 'program:runs-command', reason: `sed: ${effects.risk}` });
        }
        if (fromFile)
          out.runs.push({
            kind: 'unknown',
            rule: 'program:runs-command',
            reason: 'sed -f: the script is read from a file, so its e, r and w commands cannot be checked',
          });
      }
      const files = scripts.length > 0 && scripts[0] === ops[0] && ops[0] !== undefined ? ops.slice(1) : ops;
      out.files.push(...files.map(inPlace ? write : read));
      return;
    }
    case 'python':
    case 'python3': {
      if (!has('-c', '-m') && ops[0] && ops[0].value !== '-') out.files.push(read(ops[0]));
      // `python -m pytest ARGS` is pytest (`-m` ends python's own options): its options are checked like pytest's.
      for (let i = 0; i < args.length; i += 1) {
        const m = /^-[bBdEhiIOPqRsSuvx]*m(.*)$/.exec(args[i]!.value ?? '');
        if (!m) continue;
        const module = m[1] !== '' ? m[1] : args[i + 1]?.value;
        const rest = args.slice(m[1] !== '' ? i + 1 : i + 2);
        if (module === 'pytest' || module === 'py.test')
          out.runs.push({ kind: 'argv', words: [literal('pytest'), ...rest] });
        break;
      }
      return;
    }
    case 'node':
    case 'nodejs':
      if (!has('-e', '-p', '--eval', '--print') && ops[0] && ops[0].value !== '-')
        out.files.push(read(ops[0]));
      return;
    case 'pytest':
    case 'py.test':
      // A test id `tests/test_a.py::test_b` names the file before `::`.
      out.files.push(
        ...ops
          .map((w) =>
            w.value?.includes('::')
              ? {
                  ...w,
                  text: w.value.slice(0, w.value.indexOf('::')),
                  value: w.value.slice(0, w.value.indexOf('::')),
                }
              : w,
          )
          .map(read),
      );
      for (const option of scan.options) {
        const v = option.value?.value;
        if (v === undefined) continue;
        // `-o cache_dir=/tmp/x`, `--cov-report=html:/tmp/x`: the path after the key is written.
        const ini = /^(cache_dir|log_file|junit_xml|junitxml)=(.+)$/.exec(v);
        if ((option.name === '-o' || option.name === '--override-ini') && ini)
          out.files.push(write(literal(ini[2]!)));
        const report = /^(html|xml|json|lcov|annotate|markdown|markdown-append):(.+)$/.exec(v);
        if (option.name === '--cov-report' && report) out.files.push(write(literal(report[2]!)));
      }
      return;
    case 'enable':
      if (has('-f'))
        out.runs.push({
          kind: 'unknown',
          rule: 'program:runs-command',
          reason: 'enable -f loads a builtin from a shared library, which runs its code',
        });
      return;
    case 'hash':
      if (has('-p'))
        out.runs.push({
          kind: 'unknown',
          rule: 'program:runs-command',
          reason: 'hash -p makes a command name run another program',
        });
      return;
    case 'cd':
    case 'pushd': {
      // `cd` alone goes home; `cd -` and `pushd +N` go where the shell was before: unknowable.
      const target = ops[0];
      const v = target?.value;
      if (!target) out.files.push(read(literal('~')));
      else if (v === '-' || (program === 'pushd' && v !== undefined && /^[+-]\d+$/.test(v)))
        out.runs.push({
          kind: 'unknown',
          rule: 'path:dynamic',
          reason: `${program} ${v} enters a folder known only when it runs`,
        });
      else out.files.push(read(target));
      return;
    }
    case 'vim':
    case 'vi':
    case 'nvim':
    case 'view':
    case 'ex':
    case 'gvim':
      for (const op of ops) {
        const v = op.value ?? op.text;
        if (!v.startsWith('+')) out.files.push(write(op));
        else if (!/^\+(\d*|\/.*)$/.test(v))
          out.runs.push({
            kind: 'unknown',
            rule: 'program:runs-command',
            reason: `${program} ${v}: runs an editor command, which can run shell commands`,
          });
      }
      for (const option of scan.options)
        if (['-c', '--cmd', '-S', '-u', '-s'].includes(option.name))
          out.runs.push({
            kind: 'unknown',
            rule: 'program:runs-command',
            reason: `${program} ${option.name}: runs editor commands, which can run shell commands`,
          });
      return;
    default:
      if (READS_OPERANDS.has(program)) out.files.push(...ops.map(read));
      else if (WRITES_OPERANDS.has(program)) out.files.push(...ops.map(write));
      else if (WRITES_DESTINATION.has(program)) {
        // `cp -t DIR a b`: the table made DIR a write; every operand is a source.
        if (program !== 'rsync' && has('-t', '--target-directory')) out.files.push(...ops.map(read));
        else if (ops.length >= 2) out.files.push(...ops.slice(0, -1).map(read), write(ops[ops.length - 1]!));
      }
  }
}

/**
 * The files a simple command reads and writes and the commands it runs through its options,
 * given its normalised program name and its arguments. Unknown programs have none.
 */
export function programEffects(program: string, args: readonly ShellWord[]): ProgramEffects {
  const out: ProgramEffects = { files: [], runs: [] };
  if (program === 'git') {
    gitEffects(args, out);
    return out;
  }
  if (program === 'find') {
    findEffects(args, out);
    return out;
  }
  if (program === 'dd') {
    for (const a of args) {
      const v = a.value ?? a.text;
      if (v.startsWith('of=')) out.files.push(write(sliced(a, 3)));
      else if (v.startsWith('if=')) out.files.push(read(sliced(a, 3)));
    }
    return out;
  }
  if (program === 'source' || program === '.') {
    if (args[0]) out.files.push(read(args[0]));
    return out;
  }
  if (COMPILERS.has(program)) {
    for (let i = 0; i < args.length; i += 1) {
      const v = args[i]!.value;
      if (v === '-o' && args[i + 1]) out.files.push(write(args[i + 1]!));
      else if (v?.startsWith('-o') && v.length > 2) out.files.push(write(sliced(args[i]!, 2)));
    }
    return out;
  }
  const table: OptionTable = optionTable(program) ?? {};
  if (program === 'tar' || program === 'gtar' || program === 'bsdtar') {
    tarEffects(args, table, out);
    return out;
  }
  const scan = scanProgramArgs(args, table);
  optionEffects(scan, table, program, out);
  const patternGivenBy = PATTERN_FIRST[program];
  if (patternGivenBy) out.files.push(...afterFirst(scan, scanned(scan, ...patternGivenBy)).map(read));
  else if (!WRAPPERS.has(program)) operandFiles(program, scan, args, out);
  return out;
}
