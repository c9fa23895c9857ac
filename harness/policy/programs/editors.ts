/**
 * Editors: every file operand may be written; `+cmd`, `-c`, `--cmd`, `-S`, `-u`, `-s` run editor
 * commands, which can run shell commands (vim `:!`). Source: vim(1).
 */
import { shellOfEditorCommand } from '../code-strings.ts';
import { write } from './helpers.ts';
import type { ProgramRecord } from './types.ts';

const V = 'value' as const;
const R = 'read' as const;
const W = 'write' as const;

/** The editor records. */
export const EDITORS: readonly ProgramRecord[] = [
  {
    names: ['vim', 'vi', 'nvim', 'view', 'vimdiff', 'ex', 'gvim'],
    options: {
      short: { c: V, S: R, u: R, i: W, w: W, W: W, s: R, t: V, q: V, T: V, U: R, r: V, V: V },
      long: { cmd: V, startuptime: W },
    },
    operands: (call, out) => {
      for (const op of call.scan.operands) {
        const v = op.value ?? op.text;
        const shell = v.startsWith('+') ? shellOfEditorCommand(v.slice(1)) : undefined;
        if (!v.startsWith('+')) out.files.push(write(op));
        else if (shell !== undefined) out.runs.push({ kind: 'script', script: shell });
        else if (!/^\+(\d*|\/.*)$/.test(v))
          out.runs.push({
            kind: 'unknown',
            rule: 'program:runs-command',
            reason: `${call.program} ${v}: runs an editor command, which can run shell commands`,
          });
      }
      for (const option of call.scan.options)
        if (
          (option.name === '-c' || option.name === '--cmd') &&
          option.value?.value !== undefined &&
          shellOfEditorCommand(option.value.value) !== undefined
        )
          out.runs.push({ kind: 'script', script: shellOfEditorCommand(option.value.value)! });
        else if (['-c', '--cmd', '-S', '-u', '-s'].includes(option.name))
          out.runs.push({
            kind: 'unknown',
            rule: 'program:runs-command',
            reason: `${call.program} ${option.name}: runs editor commands, which can run shell commands`,
          });
    },
  },
  { names: ['nano', 'emacs'], operands: 'write' },
];
