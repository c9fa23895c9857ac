/**
 * The option scanner of the program records: splits a command's arguments into options (with
 * the role of their value: a file read or written, a script or program run) and operands, the
 * way GNU getopt_long, git's parse-options and Python's argparse do: clusters of short options,
 * a short option's value attached or as the next word, `--name=value` or `--name value`, `--`
 * ending the options, and long options abbreviated to any unambiguous prefix (an ambiguous
 * prefix takes the riskiest role).
 */
import type { ShellWord } from '../shell-words.ts';

/**
 * What an option's value is: `value` no file; `read`/`write` a file read or written; `script` a
 * shell command the program runs; `program` a program it runs (with arguments of its own).
 */
export type OptionRole = 'value' | 'read' | 'write' | 'script' | 'program';

/** The options of one program (or git subcommand). */
export interface OptionTable {
  /** Short options that take a value, attached (`-ofile`) or as the next word. */
  short?: Record<string, OptionRole>;
  /** Short options whose value can only be attached (`sed -i.bak`). */
  shortOptional?: Record<string, OptionRole>;
  /** Long options that take a value (`--output=F` or `--output F`). */
  long?: Record<string, OptionRole>;
  /** Long options whose value can only be attached (`--debug=file`). */
  longOptional?: Record<string, OptionRole>;
  /** Long options that take two values (`jq --slurpfile NAME FILE`): the role of the second. */
  longPair?: Record<string, OptionRole>;
  /** Flags (`-x`, `--long`) that make the program run a command configured elsewhere, with the reason. */
  runs?: Record<string, string>;
  /** Options and operands may be mixed (GNU getopt, git, argparse); false: the first operand ends the options. @default true */
  permute?: boolean;
  /** Words like `-5` are options (`head -5`). */
  numeric?: boolean;
}

/** One option seen by {@link scanProgramArgs}. */
export interface ProgramOption {
  /** `-x` or `--long` (the full name when an abbreviation was used). */
  name: string;
  role?: OptionRole;
  value?: ShellWord;
}

/** The arguments of a command split into options and operands. */
export interface ProgramScan {
  options: ProgramOption[];
  operands: ShellWord[];
}

const STRICTNESS: Record<OptionRole, number> = { value: 0, read: 1, program: 2, script: 2, write: 3 };

/** Finds a long option by exact name or unambiguous prefix; ambiguous prefixes take the riskiest role. */
function lookupLong(
  map: Record<string, OptionRole> | undefined,
  name: string,
): { name: string; role: OptionRole; exact: boolean } | undefined {
  if (!map) return undefined;
  if (Object.hasOwn(map, name)) return { name, role: map[name]!, exact: true };
  if (name.length < 2) return undefined;
  let found: { name: string; role: OptionRole; exact: boolean } | undefined;
  for (const [full, role] of Object.entries(map))
    if (full.startsWith(name) && (!found || STRICTNESS[role] > STRICTNESS[found.role]))
      found = { name: full, role, exact: false };
  return found;
}

const attached = (word: ShellWord, text: string): ShellWord => ({
  text,
  ...(word.value !== undefined ? { value: text } : {}),
  substitutions: [],
  expands: word.expands,
  plain: false,
});

/**
 * Splits `words` (the arguments after the program) into options and operands using `table`.
 * `--` ends the options; a word without a static value is an operand; with `permute: false`
 * the first operand ends the options. An abbreviated long option that takes a value that is no
 * file does not take the next word (so a file operand is never hidden behind a guessed option).
 */
export function scanProgramArgs(words: readonly ShellWord[], table: OptionTable): ProgramScan {
  const options: ProgramOption[] = [];
  const operands: ShellWord[] = [];
  const permute = table.permute ?? true;
  let ended = false;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    const value = word.value;
    if (ended || value === undefined || value === '-' || !value.startsWith('-')) {
      operands.push(word);
      if (!permute) ended = true;
      continue;
    }
    if (value === '--') {
      ended = true;
      continue;
    }
    if (value.startsWith('--')) {
      const eq = value.indexOf('=');
      const name = eq >= 0 ? value.slice(2, eq) : value.slice(2);
      const pair = lookupLong(table.longPair, name);
      if (pair?.exact && eq < 0) {
        options.push({
          name: `--${pair.name}`,
          role: pair.role,
          ...(i + 2 < words.length ? { value: words[i + 2]! } : {}),
        });
        i += 2;
        continue;
      }
      const required = lookupLong(table.long, name);
      const optional = lookupLong(table.longOptional, name);
      const match =
        required && optional
          ? STRICTNESS[required.role] >= STRICTNESS[optional.role]
            ? required
            : optional
          : (required ?? optional);
      const runs = Object.keys(table.runs ?? {}).find(
        (flag) => flag === `--${name}` || (name.length >= 2 && flag.startsWith(`--${name}`)),
      );
      if (eq >= 0)
        options.push({
          name: `--${match?.name ?? name}`,
          role: match?.role ?? 'value',
          value: attached(word, value.slice(eq + 1)),
        });
      else if (
        match &&
        match === required &&
        (match.exact || match.role !== 'value') &&
        i + 1 < words.length
      ) {
        options.push({ name: `--${match.name}`, role: match.role, value: words[i + 1]! });
        i += 1;
      } else options.push({ name: runs ?? `--${match?.name ?? name}` });
      continue;
    }
    if (table.numeric && /^-\d+$/.test(value)) {
      options.push({ name: value });
      continue;
    }
    for (let k = 1; k < value.length; k += 1) {
      const letter = value[k]!;
      const role = table.short?.[letter];
      const optionalRole = table.shortOptional?.[letter];
      if (role) {
        const rest = value.slice(k + 1);
        if (rest !== '') options.push({ name: `-${letter}`, role, value: attached(word, rest) });
        else if (i + 1 < words.length) {
          options.push({ name: `-${letter}`, role, value: words[i + 1]! });
          i += 1;
        } else options.push({ name: `-${letter}`, role });
        break;
      }
      if (optionalRole) {
        const rest = value.slice(k + 1);
        options.push({
          name: `-${letter}`,
          role: optionalRole,
          ...(rest !== '' ? { value: attached(word, rest) } : {}),
        });
        break;
      }
      options.push({ name: `-${letter}` });
    }
  }
  return { options, operands };
}

/** True when the scan saw any of `names` (`-e`, `--regexp`). */
export function scanned(scan: ProgramScan, ...names: string[]): boolean {
  return scan.options.some((o) => names.includes(o.name));
}
