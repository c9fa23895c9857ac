/**
 * One record per shell program: everything the policy knows about it in one place — how its
 * arguments are scanned (the option table), which operands and option values are files it reads
 * or writes, which options make it run a command, whether it reaches the network, whether it
 * runs code the repository configures (test runners, build tools, package scripts), which
 * folders it walks recursively (and whether it follows links there), whether it dumps the
 * environment, and, for wrappers, the command it runs. Records are grouped by family in this
 * folder; `index.ts` looks them up by name. Effect classes follow `docs/architecture.md` §3.
 */
import type { EffectClass } from '../../tools/types.ts';
import type { ShellWord } from '../shell-words.ts';
import type { OptionTable, ProgramScan } from './options.ts';

/** One simple command as a record sees it. */
export interface ProgramCall {
  /** The normalised program name (`git`, `python3`). */
  program: string;
  /** The words after the program. */
  args: readonly ShellWord[];
  /** `args` split by the record's option table. */
  scan: ProgramScan;
}

/** A file argument of a command. */
export interface FileArgument {
  word: ShellWord;
  access: 'read' | 'write';
  /** Only the name is used, not what a link there points to (`ls -l link`, `stat link`, `readlink link`). */
  noFollow?: boolean;
}

/** A command a program runs because of its options: a script to analyse, words to analyse, or something unknowable (ask). */
export type ProgramRun =
  | { kind: 'script'; script: string }
  /** A command given as words (`python -m pytest …` runs `pytest …`). */
  | { kind: 'argv'; words: ShellWord[] }
  | { kind: 'unknown'; rule: 'program:runs-command' | 'program:dynamic' | 'path:dynamic'; reason: string };

/**
 * A folder tree a program walks (`grep -r`, `tar c`, `cp -r`, `chmod -R`): every file under the
 * roots is read (or written), and the links met are followed per `follows`.
 */
export interface RecursiveWalk {
  /** Where the walk starts (folders or files), as written. */
  roots: ShellWord[];
  /** Links followed: every link met (`grep -R`, `find -L`), only links given as roots (`grep -r`), or none. */
  follows: 'all' | 'roots' | 'none';
  /** The program reads the files' content (`grep -r`, `tar c`), not only their names and sizes (`ls -R`, `find`, `du`). */
  content: boolean;
  access: 'read' | 'write';
}

/** What a command does beyond its own program: files it reads and writes, commands it runs, trees it walks. */
export interface ProgramEffects {
  files: FileArgument[];
  runs: ProgramRun[];
  walks: RecursiveWalk[];
}

/** What a wrapper runs (`timeout 5 rm x` → `rm x`, `sh -c 'a; b'` → the script). */
export type Unwrapped =
  /** An argument vector (`timeout 5 rm x` → `rm x`). */
  | { kind: 'argv'; words: ShellWord[] }
  /** A script string to parse (`sh -c 'rm x; ls'`). */
  | { kind: 'script'; script: string }
  /** The wrapped command depends on an expansion (`sh -c "$CMD"`): unknowable. */
  | { kind: 'dynamic'; reason: string };

/** The result of unwrapping one command: zero or more wrapped commands and side facts. */
export interface WrapperInfo {
  inner: Unwrapped[];
  /** `env NAME=value …` assignments made for the wrapped command. */
  assignments: { name: string; value?: ShellWord }[];
  /** The wrapper changes the working directory of what it runs (`env -C`, `git -C`). */
  changesDirectory?: boolean;
  /** A shell invoked without `-c`: it reads its script from stdin or a file. */
  readsStdin?: boolean;
  /** `git -c name=value`: configuration that can run programs (core.pager, core.sshCommand, alias.*). */
  configOverride?: boolean;
}

/** A value or a function of the call. */
export type ByCall<T> = T | ((call: ProgramCall) => T);

/** Everything the policy knows about one program (see the file comment). */
export interface ProgramRecord {
  /** The names it answers to (`grep`, `egrep`, …). */
  names: readonly string[];
  /** How its arguments are scanned; option values with a role are files read or written, or commands run. */
  options?: OptionTable;
  /** Its own scan when the table is not enough (`tar cf` old-style clusters); default: the table. */
  scan?: (args: readonly ShellWord[]) => ProgramScan;
  /**
   * Which operands are files: all read, all written, the last one written (`cp a b dst`), or a
   * function adding files, commands and walks to `out`.
   */
  operands?: 'read' | 'write' | 'destination' | ((call: ProgramCall, out: ProgramEffects) => void);
  /** `read` changes nothing; `irreversible` cannot be undone (deletes, kills). @default 'write' */
  effect?: ByCall<EffectClass>;
  /** Reaches another host (a network call is `irreversible`). @default false */
  network?: ByCall<boolean>;
  /**
   * Runs code the repository contains or configures (a test runner, a build tool, a package
   * script, a script file): why, or undefined when this call does not. After untrusted content,
   * such calls need a human (`policy.ts`).
   */
  repositoryCode?: ByCall<string | undefined>;
  /** Runs code given inline (`python -c`, `node -e`, `perl -e`): it may reach the network, for the exfiltration rule. */
  inlineCode?: ByCall<boolean>;
  /** Dumps the whole environment (`env`, `printenv`, `set`): secrets for the exfiltration rule. */
  environment?: ByCall<boolean>;
  /** For wrappers: the commands it runs. */
  wrapper?: (args: readonly ShellWord[]) => WrapperInfo;
  /**
   * The harness runs this program with a guard the policy can state (git: repository-configured
   * programs disabled; see `sandbox/git-guard.ts`).
   */
  guard?: string;
}

/** Resolves a {@link ByCall} value. */
export function byCall<T>(value: ByCall<T> | undefined, call: ProgramCall, fallback: T): T {
  if (value === undefined) return fallback;
  return typeof value === 'function' ? (value as (call: ProgramCall) => T)(call) : value;
}
