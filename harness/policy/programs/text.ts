/**
 * Text processors whose first operand is a program of their own (`sed`, `awk`, `jq`, `yq`) and
 * the pagers (`less`, `more`). The sed and awk scripts are parsed for the files they read and
 * write and the commands they run (`scripts.ts`). Sources: GNU sed and gawk manuals, jq(1),
 * less(1).
 */
import { has, literal, read, write } from './helpers.ts';
import { scanProgramArgs } from './options.ts';
import type { ProgramCall, ProgramEffects, ProgramRecord } from './types.ts';
import { awkCommands } from '../code-strings.ts';
import { awkProgramRisk, sedScriptEffects } from './scripts.ts';

const V = 'value' as const;
const R = 'read' as const;
const W = 'write' as const;

const JQ_OPTIONS = {
  short: { f: R, L: R },
  long: { 'from-file': R, indent: V, arg: V, argjson: V },
  longPair: { arg: V, argjson: V, slurpfile: R, rawfile: R },
};

function sedOperands(call: ProgramCall, out: ProgramEffects): void {
  const { scan } = call;
  const ops = scan.operands;
  const scripts = scan.options
    .filter((o) => o.name === '-e' || o.name === '--expression')
    .map((o) => o.value);
  const fromFile = has(call, '-f', '--file');
  if (scripts.length === 0 && !fromFile) scripts.push(ops[0]);
  const inPlace = has(call, '-i', '--in-place');
  if (!has(call, '--sandbox')) {
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
      for (const command of effects.commands) out.runs.push({ kind: 'script', script: command });
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
}

function awkOperands(call: ProgramCall, out: ProgramEffects): void {
  const { scan, program } = call;
  const ops = scan.operands;
  const given = has(call, '-f', '--file', '-E', '--exec');
  const sources = [
    ...scan.options.filter((o) => o.name === '--source').map((o) => o.value),
    ...(given || has(call, '--source') ? [] : [ops[0]]),
  ];
  for (const source of sources) {
    if (!source) continue;
    const commands = source.value !== undefined ? awkCommands(source.value) : undefined;
    for (const command of commands?.commands ?? [])
      out.runs.push(
        /^\s*(sh|bash|dash|zsh|ksh|busybox\s+sh)\s*$/.test(command)
          ? {
              kind: 'unknown',
              rule: 'program:runs-command',
              reason: `${program} pipes data into ${command.trim()}, which runs it as commands`,
            }
          : { kind: 'script', script: command },
      );
    const risk =
      commands === undefined
        ? 'the awk program is built from an expansion'
        : (commands.dynamic ?? awkProgramRisk(commands.rest));
    if (risk) out.runs.push({ kind: 'unknown', rule: 'program:runs-command', reason: `${program}: ${risk}` });
  }
  if (given)
    out.runs.push({
      kind: 'unknown',
      rule: 'program:runs-command',
      reason: `${program} -f: the awk program is read from a file, so what it runs or writes cannot be checked`,
    });
  const files = given || has(call, '--source') ? ops : ops.slice(1);
  out.files.push(...files.filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.value ?? w.text)).map(read));
}

function pagerOperands(call: ProgramCall, out: ProgramEffects): void {
  for (const op of call.scan.operands) {
    const v = op.value ?? op.text;
    const shell = /^\+:?!/.test(v) ? v.replace(/^\+:?!/, '') : undefined;
    if (!v.startsWith('+')) out.files.push(read(op));
    else if (shell !== undefined && shell !== '' && !/[|]/.test(v))
      out.runs.push({ kind: 'script', script: shell });
    else if (/[!|]/.test(v))
      out.runs.push({
        kind: 'unknown',
        rule: 'program:runs-command',
        reason: `${call.program} ${v}: an initial command with ! or | runs a shell command`,
      });
  }
}

/** The text-processor records. */
export const TEXT: readonly ProgramRecord[] = [
  {
    names: ['sed'],
    effect: (call) => (call.args.some((a) => /^(-i|--in-place)/.test(a.value ?? a.text)) ? 'write' : 'read'),
    options: {
      short: { e: V, f: R, l: V },
      shortOptional: { i: V },
      long: { expression: V, file: R, 'line-length': V },
      longOptional: { 'in-place': V },
    },
    operands: sedOperands,
  },
  {
    names: ['awk', 'gawk', 'mawk', 'nawk', 'busybox_awk'],
    effect: (call) =>
      call.program === 'awk' && !call.args.some((a) => /system|>|\|/.test(a.value ?? a.text))
        ? 'read'
        : 'write',
    options: {
      short: { f: R, v: V, F: V, i: R, l: 'program', E: R },
      long: { file: R, assign: V, 'field-separator': V, include: R, load: 'program', source: V, exec: R },
      longOptional: { 'dump-variables': W, profile: W, 'pretty-print': W, debug: V },
      permute: false,
    },
    operands: awkOperands,
  },
  {
    names: ['jq'],
    effect: 'read',
    options: JQ_OPTIONS,
    operands: (call, out) => {
      const cut = call.args.findIndex((a) => a.value === '--args' || a.value === '--jsonargs');
      const files =
        cut >= 0 ? scanProgramArgs(call.args.slice(0, cut), JQ_OPTIONS).operands : call.scan.operands;
      out.files.push(...(has(call, '-f', '--from-file') ? files : files.slice(1)).map(read));
    },
  },
  {
    names: ['yq'],
    options: {
      short: { I: V, o: V, p: V, f: V },
      long: {
        indent: V,
        'output-format': V,
        'input-format': V,
        'from-file': R,
        'front-matter': V,
        expression: V,
      },
    },
    operands: (call, out) => out.files.push(...call.scan.operands.slice(1).map(read)),
  },
  {
    names: ['less'],
    effect: 'read',
    options: {
      short: { b: V, h: V, j: V, k: R, o: W, O: W, p: V, P: V, t: V, T: R, x: V, y: V, z: V, '#': V },
      long: {
        'log-file': W,
        'LOG-FILE': W,
        tag: V,
        'tag-file': R,
        pattern: V,
        prompt: V,
        'lesskey-file': R,
        'lesskey-src': R,
        buffers: V,
        'max-back-scroll': V,
        'max-forw-scroll': V,
        window: V,
        tabs: V,
        shift: V,
      },
    },
    operands: pagerOperands,
  },
  {
    // man -P CMD / --pager=CMD: the pager is a command line (man(1)); -H/--html the browser.
    names: ['man'],
    effect: 'read',
    options: {
      short: { P: 'script', H: 'script', M: V, L: V, S: V, s: V, m: V, p: V, C: R, E: V, R: V, e: V, r: V },
      long: {
        pager: 'script',
        html: 'script',
        manpath: V,
        locale: V,
        sections: V,
        systems: V,
        preprocessor: V,
        config: R,
        encoding: V,
        recode: V,
        extension: V,
        prompt: V,
      },
    },
  },
  {
    // script -c CMD runs CMD (util-linux script(1)); the operand is the typescript file written.
    names: ['script'],
    options: {
      short: { c: 'script', E: V, I: W, O: W, B: W, T: W, o: V },
      long: {
        command: 'script',
        'log-in': W,
        'log-out': W,
        'log-io': W,
        'log-timing': W,
        echo: V,
        'output-limit': V,
      },
      longOptional: { timing: W },
    },
    operands: 'write',
  },
  {
    names: ['more'],
    effect: 'read',
    options: { short: { n: V }, long: { lines: V } },
    operands: pagerOperands,
  },
];
