/**
 * Option scanning for wrapper commands (`sudo -u root rm …`, `timeout -s KILL 5 rm …`): finds
 * where the wrapped command begins, following the POSIX utility conventions (clusters of short
 * options, an option that takes a value consumes the rest of its cluster or the next word,
 * `--` ends the options, `--name=value` long options).
 */
import type { ShellWord } from './shell-words.ts';

/** Which options take a value. */
export interface OptionSpec {
  /** Short option letters that take a value (`'ugCDhprtTU'` for sudo). */
  short?: string;
  /** Long option names (without `--`) that take a value. */
  long?: readonly string[];
  /** Words like `-10` (nice) are options. */
  numeric?: boolean;
}

/** An option seen while scanning: its name (`-u`, `--user`) and value when it takes one. */
export interface ScannedOption {
  name: string;
  value?: ShellWord;
}

/** Where the operands begin. `index` may equal `words.length` (no operand). */
export interface ScanResult {
  index: number;
  options: ScannedOption[];
}

/**
 * Scans `words` from `start` over options until the first operand. A word without a static
 * value ends the scan (it is treated as the operand, so the wrapped program is unknowable).
 */
export function scanOptions(words: readonly ShellWord[], spec: OptionSpec, start = 0): ScanResult {
  const options: ScannedOption[] = [];
  const shortWithValue = spec.short ?? '';
  const longWithValue = new Set(spec.long ?? []);
  let i = start;
  while (i < words.length) {
    const value = words[i]!.value;
    if (value === undefined) break;
    if (value === '--') return { index: i + 1, options };
    if (value.startsWith('--') && value.length > 2) {
      const eq = value.indexOf('=');
      const name = eq >= 0 ? value.slice(2, eq) : value.slice(2);
      if (eq >= 0)
        options.push({
          name: `--${name}`,
          value: {
            text: value.slice(eq + 1),
            value: value.slice(eq + 1),
            substitutions: [],
            expands: false,
            plain: false,
          },
        });
      else if (longWithValue.has(name) && i + 1 < words.length) {
        options.push({ name: `--${name}`, value: words[i + 1]! });
        i += 1;
      } else options.push({ name: `--${name}` });
      i += 1;
      continue;
    }
    if (value.startsWith('-') && value.length > 1) {
      if (spec.numeric && /^-\d+$/.test(value)) {
        options.push({ name: value });
        i += 1;
        continue;
      }
      let consumedNext = false;
      for (let k = 1; k < value.length; k += 1) {
        const letter = value[k]!;
        if (shortWithValue.includes(letter)) {
          const rest = value.slice(k + 1);
          if (rest !== '')
            options.push({
              name: `-${letter}`,
              value: { text: rest, value: rest, substitutions: [], expands: false, plain: false },
            });
          else if (i + 1 < words.length) {
            options.push({ name: `-${letter}`, value: words[i + 1]! });
            consumedNext = true;
          } else options.push({ name: `-${letter}` });
          break;
        }
        options.push({ name: `-${letter}` });
      }
      i += consumedNext ? 2 : 1;
      continue;
    }
    break;
  }
  return { index: i, options };
}

/** True when the scan saw option `-x` or `--long` (any of `names`). */
export function hasOption(scan: ScanResult, ...names: string[]): boolean {
  return scan.options.some((o) => names.includes(o.name));
}

/** The value of the last occurrence of any of `names`, when present. */
export function optionValue(scan: ScanResult, ...names: string[]): ShellWord | undefined {
  let found: ShellWord | undefined;
  for (const o of scan.options) if (names.includes(o.name) && o.value) found = o.value;
  return found;
}
