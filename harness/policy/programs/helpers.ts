/**
 * Small helpers shared by the program records: literal words, file arguments, the first operand,
 * and the generic effects of option values (a value whose role is `read`/`write` is a file, one
 * whose role is `script`/`program` is a command the program runs).
 */
import type { ShellWord } from '../shell-words.ts';
import type { OptionTable, ProgramScan } from './options.ts';
import type { FileArgument, ProgramCall, ProgramEffects, RecursiveWalk } from './types.ts';

/** A word with a static value and no node behind it. */
export const literal = (value: string): ShellWord => ({
  text: value,
  value,
  substitutions: [],
  expands: false,
  plain: false,
});
/** The word as a file read. */
export const read = (word: ShellWord): FileArgument => ({ word, access: 'read' });
/** The word as a name read without following a link there (`ls -l`, `stat`, `readlink`). */
export const readName = (word: ShellWord): FileArgument => ({ word, access: 'read', noFollow: true });
/** The word as a file written. */
export const write = (word: ShellWord): FileArgument => ({ word, access: 'write' });
/** The word without its first `from` characters (`of=x` → `x`). */
export const sliced = (word: ShellWord, from: number): ShellWord => ({
  ...word,
  text: (word.value ?? word.text).slice(from),
  ...(word.value !== undefined ? { value: word.value.slice(from) } : {}),
});
/** Static values of the words (the text as written when dynamic). */
export const values = (args: readonly ShellWord[]): string[] => args.map((a) => a.value ?? a.text);
/** The first word that does not start with `-` (a subcommand), when static. */
export const firstOperand = (args: readonly ShellWord[]): string | undefined =>
  args.find((a) => !(a.value ?? a.text).startsWith('-'))?.value;
/** True when the call's scan saw any of `names`. */
export const has = (call: ProgramCall, ...names: string[]): boolean =>
  call.scan.options.some((o) => names.includes(o.name));
/** The operands, or `.` when there is none (programs that walk the working directory by default). */
export const rootsOrDot = (operands: readonly ShellWord[]): ShellWord[] =>
  operands.length > 0 ? [...operands] : [literal('.')];
/** A walk of `roots`. */
export const walk = (
  roots: ShellWord[],
  follows: RecursiveWalk['follows'],
  content: boolean,
  access: 'read' | 'write' = 'read',
): RecursiveWalk => ({ roots, follows, content, access });

/** Adds the files and commands named by option values, and the flags that run configured programs. */
export function optionEffects(
  scan: ProgramScan,
  table: OptionTable,
  program: string,
  out: ProgramEffects,
): void {
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
