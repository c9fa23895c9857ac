/**
 * Shell builtins with something to say: `cd` and `pushd` enter a folder (read), `source` and `.`
 * run the commands of a file, `enable -f` loads a builtin from a shared library, `hash -p` makes
 * a name run another program, and `env`-like dumps (`printenv`, `set`, `declare`, `export -p`)
 * read the whole environment. Source: the bash manual §4.
 */
import { has, literal, read, values } from './helpers.ts';
import { SECRET_NAME } from './secrets.ts';
import type { ProgramRecord } from './types.ts';

/** The builtin records. */
export const BUILTINS: readonly ProgramRecord[] = [
  { names: ['echo', 'printf', 'test', '[', 'popd'], effect: 'read' },
  {
    names: ['cd', 'pushd'],
    effect: 'read',
    operands: (call, out) => {
      // `cd` alone goes home; `cd -` and `pushd +N` go where the shell was before: unknowable.
      const target = call.scan.operands[0];
      const v = target?.value;
      if (!target) out.files.push(read(literal('~')));
      else if (v === '-' || (call.program === 'pushd' && v !== undefined && /^[+-]\d+$/.test(v)))
        out.runs.push({
          kind: 'unknown',
          rule: 'path:dynamic',
          reason: `${call.program} ${v} enters a folder known only when it runs`,
        });
      else out.files.push(read(target));
    },
  },
  {
    names: ['source', '.'],
    scan: (args) => ({ options: [], operands: [...args] }),
    operands: (call, out) => {
      if (call.args[0]) out.files.push(read(call.args[0]));
    },
    repositoryCode: (call) => `${call.program} runs the commands of ${call.args[0]?.value ?? 'a file'}`,
  },
  {
    names: ['enable'],
    options: { short: { f: 'read' } },
    operands: (call, out) => {
      if (has(call, '-f'))
        out.runs.push({
          kind: 'unknown',
          rule: 'program:runs-command',
          reason: 'enable -f loads a builtin from a shared library, which runs its code',
        });
    },
  },
  {
    names: ['hash'],
    options: { short: { p: 'value' } },
    operands: (call, out) => {
      if (has(call, '-p'))
        out.runs.push({
          kind: 'unknown',
          rule: 'program:runs-command',
          reason: 'hash -p makes a command name run another program',
        });
    },
  },
  {
    names: ['printenv'],
    effect: 'read',
    environment: (call) => call.args.length === 0 || values(call.args).some((v) => SECRET_NAME.test(v)),
  },
  { names: ['set', 'declare', 'typeset'], environment: (call) => call.args.length === 0 },
  { names: ['export'], environment: (call) => values(call.args).includes('-p') },
];
