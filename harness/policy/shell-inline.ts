/**
 * Inline interpreter programs in the shell analysis: the program given with `-c`/`-e` (or read on
 * stdin) is read by `inline-code.ts`, and what it reaches goes into the accumulator: its paths,
 * the network, secrets, deletions (as `rm -rf`), the shell commands it runs, and the words after
 * it as files it may read. `shell-commands.ts` calls these for every simple command.
 */
import { INLINE_FLAGS, reportInline } from './inline-code.ts';
import { type Accumulator, addPath, finding } from './shell-accumulator.ts';
import { literalWord, type ShellWord } from './shell-words.ts';

/** The script analysis (`shell-commands.ts` `analyseScript`), passed in to keep the imports one way. */
export type Analyse = (acc: Accumulator, script: string, depth: number) => void;

/**
 * Analyses the inline programs of one simple command (`name` and its words after the program,
 * `text` the normalised command); true when the interpreter reads its program from stdin instead.
 */
export function inlinePrograms(
  acc: Accumulator,
  name: string,
  args: readonly ShellWord[],
  text: string,
  depth: number,
  analyse: Analyse,
): boolean {
  const inlineFlag = INLINE_FLAGS[name];
  let inlineGiven = false;
  if (inlineFlag)
    for (let i = 0; i < args.length; i += 1) {
      const flag = args[i]!.value;
      const code = args[i + 1];
      if (flag === undefined || !inlineFlag.test(flag) || !code) continue;
      inlineGiven = true;
      acc.repositoryCode.push(`${name} ${flag} runs a program given inline`);
      if (code.value === undefined)
        finding(acc, text, 'ask', 'program:dynamic', `the inline ${name} program is built from an expansion`);
      else inlineProgram(acc, name, code.value, text, depth, analyse);
      // The words after the program are its arguments (`perl -ne '…' FILE` reads FILE): files it may read.
      for (const operand of args.slice(i + 2))
        if (
          operand.value !== undefined &&
          !operand.value.startsWith('-') &&
          !INLINE_FLAGS[name]!.test(operand.value)
        )
          addPath(acc, operand, 'read', text);
      i += 1;
    }
  // An interpreter without a script or inline program reads its program from stdin (`python3 <<'EOF'`, `… | node`, `python3 -`).
  const stdinProgram =
    inlineFlag !== undefined &&
    !inlineGiven &&
    !args.some((a) => a.value === undefined) &&
    (args.every((a) => a.value!.startsWith('-')) ||
      args.find((a) => !a.value!.startsWith('-'))?.value === '-') &&
    !args.some((a) => /^(-V|--version|-h|--help|-m|-v)$/.test(a.value!));
  if (stdinProgram) {
    acc.repositoryCode.push(`${name} runs the program it reads on stdin`);
    acc.inlineCode.push(text);
  }
  return stdinProgram;
}

/** Analyses an inline interpreter program (`inline-code.ts`) of the part just recorded, `text`. */
export function inlineProgram(
  acc: Accumulator,
  program: string,
  code: string,
  text: string,
  depth: number,
  analyse: Analyse,
  last = true,
): void {
  let part = acc.parts[acc.parts.length - 1]!;
  if (!last) for (const p of acc.parts) if (p.program === program) part = p;
  reportInline(program, code, {
    path: (p, access) => addPath(acc, literalWord(p), access, text),
    network: () => {
      acc.network.push(text);
      part.network = true;
      part.effect = 'irreversible';
    },
    secret: () => acc.secrets.push(text),
    deletes: (targets, call) => {
      acc.equivalents.push({
        command: text,
        as: `rm -rf ${targets.join(' ')}`,
        reason: `the inline ${program} program deletes files (${call})`,
      });
      part.effect = 'irreversible';
    },
    command: (script) => analyse(acc, script, depth + 1),
    unknown: (reason) => finding(acc, text, 'ask', 'program:dynamic', reason),
  });
}
