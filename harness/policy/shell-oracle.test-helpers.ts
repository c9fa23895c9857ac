/**
 * The differential oracle of the shell analysis: what bash itself executes for a command. Each
 * command runs under bash with `xtrace` (`SHELLOPTS=xtrace`, `BASH_XTRACEFD`, so nested bash
 * processes trace too) inside the sandbox, with every external program stubbed by a shell
 * script that logs its argument vector (so commands started by `timeout`, `env`, `xargs` and
 * `find -exec`, which bash does not trace, are seen too). The traces are parsed back into
 * argument vectors and compared with the simple commands the analysis reports: every command
 * bash runs must be one the analysis reports, with the same arguments where the analysis knows
 * them (bash manual §4.3.1 `set -x`, §5.2 `BASH_XTRACEFD`, `SHELLOPTS`).
 */
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CommandAnalysis, CommandPart } from './shell-analysis-types.ts';

/** External programs replaced by logging stubs. */
export const STUB_PROGRAMS = [
  'ls',
  'cat',
  'grep',
  'rm',
  'git',
  'curl',
  'touch',
  'mkdir',
  'p1',
  'p2',
  'wc',
  'sort',
];
/** Real programs the commands may use (wrappers and shells); their children are stubs again. */
export const REAL_PROGRAMS = ['bash', 'timeout', 'env', 'nice', 'nohup', 'xargs', 'find'];

/** Unit and record separators of the stub log. */
const US = '\x1f';
const RS = '\x1e';

/** Creates the stub folder, the case folder and the driver under `root` (a folder inside the sandbox's workspace). */
export function prepareOracle(root: string, commands: readonly string[]): void {
  for (const dir of ['stubs', 'cases', 'out', 'ws/d', 'home'])
    mkdirSync(path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, 'ws', 'in1'), 'x y\n');
  for (const name of STUB_PROGRAMS) {
    const file = path.join(root, 'stubs', name);
    // One write per call (O_APPEND), so stubs in a pipeline never interleave their records.
    writeFileSync(
      file,
      `#!/bin/sh\ns=$(printf '%s\\037' "\${0##*/}" "$@"; printf x)\nprintf '%s\\036\\n' "\${s%x}" >> "\${HB_LOG:-${root}/out/stray}"\n`,
    );
    chmodSync(file, 0o755);
  }
  for (const name of REAL_PROGRAMS) symlinkSync(`/usr/bin/${name}`, path.join(root, 'stubs', name));
  symlinkSync('/usr/bin/bash', path.join(root, 'stubs', 'sh'));
  commands.forEach((command, i) => {
    writeFileSync(path.join(root, 'cases', String(i).padStart(5, '0')), command);
  });
  writeFileSync(
    path.join(root, 'driver.sh'),
    [
      `cd '${root}/ws'`,
      `for f in '${root}'/cases/*; do`,
      '  n=${f##*/}',
      '  c=$(cat "$f"; printf x); c=${c%x}',
      `  env -i PATH='${root}/stubs' HOME='${root}/home' HB_LOG="${root}/out/$n.stub" LC_ALL=C.UTF-8 SHELLOPTS=xtrace BASH_XTRACEFD=9 PS4='+ ' /usr/bin/timeout -s KILL 5 /usr/bin/bash --norc --noprofile -c "$c" 9>"${root}/out/$n.trace" </dev/null >/dev/null 2>&1`,
      'done',
      // Process substitutions may still be writing: let them finish.
      'sleep 0.5',
      '',
    ].join('\n'),
  );
}

/** Decodes a `$'…'` body as bash's xtrace writes it (octal escapes are UTF-8 bytes). */
function decodeTraceAnsiC(body: string): string {
  const bytes: number[] = [];
  const simple: Record<string, number> = {
    a: 7,
    b: 8,
    e: 27,
    E: 27,
    f: 12,
    n: 10,
    r: 13,
    t: 9,
    v: 11,
    '\\': 92,
    "'": 39,
    '"': 34,
    '?': 63,
  };
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    const octal = /^[0-7]{1,3}/.exec(body.slice(i + 1));
    if (octal) {
      bytes.push(Number.parseInt(octal[0], 8) & 0xff);
      i += octal[0].length;
    } else if (next === 'x') {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 2))?.[0] ?? '';
      bytes.push(Number.parseInt(hex || '0', 16));
      i += 1 + hex.length;
    } else if (simple[next] !== undefined) {
      bytes.push(simple[next]!);
      i += 1;
    } else {
      bytes.push(92);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Parses an xtrace into argument vectors: one per traced line (`+ word word…`), quotes removed. */
export function parseTrace(text: string): string[][] {
  const out: string[][] = [];
  let i = 0;
  while (i < text.length) {
    while (text[i] === '+') i += 1;
    if (text[i] === ' ') i += 1;
    const words: string[] = [];
    let word = '';
    let started = false;
    while (i < text.length && text[i] !== '\n') {
      const c = text[i]!;
      if (c === ' ') {
        if (started) words.push(word);
        word = '';
        started = false;
        i += 1;
      } else if (c === "'") {
        const end = text.indexOf("'", i + 1);
        word += text.slice(i + 1, end < 0 ? text.length : end);
        started = true;
        i = end < 0 ? text.length : end + 1;
      } else if (c === '$' && text[i + 1] === "'") {
        let j = i + 2;
        while (j < text.length && text[j] !== "'") j += text[j] === '\\' ? 2 : 1;
        word += decodeTraceAnsiC(text.slice(i + 2, j));
        started = true;
        i = j + 1;
      } else if (c === '\\' && i + 1 < text.length) {
        word += text[i + 1];
        started = true;
        i += 2;
      } else {
        word += c;
        started = true;
        i += 1;
      }
    }
    if (started) words.push(word);
    if (words.length > 0) out.push(words);
    i += 1;
  }
  return out;
}

/** Parses a stub log into argument vectors (program name first). */
export function parseStubLog(text: string): string[][] {
  return text
    .split(`${RS}\n`)
    .filter((record) => record !== '')
    .map((record) => record.split(US).slice(0, -1));
}

/** Reads the traces of case `i` after the driver ran. */
export function executedCommands(root: string, i: number): string[][] {
  const n = String(i).padStart(5, '0');
  const read = (suffix: string) => {
    try {
      return readFileSync(path.join(root, 'out', `${n}.${suffix}`), 'utf8');
    } catch {
      return '';
    }
  };
  return [...parseTrace(read('trace')), ...parseStubLog(read('stub'))];
}

/** Findings that say the analysis cannot know what runs: the command asks, whatever bash does. */
export const BLIND_RULES = new Set([
  'analysis:unparseable',
  'analysis:too-long',
  'analysis:too-deep',
  'shell:ambiguous-bytes',
  'shell:parser-differential',
  'shell:unanalysed-substitution',
  'shell:arithmetic',
  'shell:indirection',
  'program:dynamic',
  'program:source',
]);

/** Trace lines that are no simple commands: compound-command headers and assignments. */
function notACommand(argv: readonly string[]): boolean {
  const first = argv[0] ?? '';
  return (
    ['for', 'select', 'case', '((', '[['].includes(first) ||
    /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(first)
  );
}

/** Builtins whose traced arguments bash reshapes (`declare -a y=(3)` traces as `y=('3')` and `declare -a y`). */
const RESHAPED = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);

/** True when the part `part` accounts for the executed `argv`. */
function accounts(part: CommandPart, argv: readonly string[]): boolean {
  if (part.argv[0] !== argv[0]) return false;
  if (RESHAPED.has(argv[0] ?? '')) return true;
  for (let k = 1; k < part.argv.length; k += 1) {
    const want = part.argv[k];
    // A word decided by expansion (or xargs' `{}`): the rest may be any words.
    if (want === null || want === '{}') return true;
    if (argv[k] !== want) return false;
  }
  return argv.length === part.argv.length;
}

/** Why the analysis and bash disagree on a command, or undefined when they agree (or the analysis asks because it cannot know). */
export function disagreement(analysis: CommandAnalysis, executed: readonly string[][]): string | undefined {
  if (analysis.findings.some((f) => BLIND_RULES.has(f.rule))) return undefined;
  for (const argv of executed) {
    if (notACommand(argv)) continue;
    if (analysis.parts.some((part) => accounts(part, argv))) continue;
    return `bash ran ${JSON.stringify(argv)}, which the analysis does not report (it reports ${JSON.stringify(analysis.parts.map((p) => p.argv))})`;
  }
  return undefined;
}
