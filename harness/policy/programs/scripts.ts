/**
 * Programs whose first operand is a small program of their own: what a sed script or an awk
 * program can do beyond reading its input. sed's `e` command and `s///e` flag run shell
 * commands, `w`/`W` and `s///w` write files, `r`/`R` read files (GNU sed manual §3); awk's
 * `system()`, pipes (`print | "cmd"`, `"cmd" | getline`) and output redirection (`print >
 * "file"`) run commands or write files (gawk manual §5.6, §5.7, §9.1.4).
 */

/** What a sed script does beyond its input: the files it reads and writes, and a reason to ask. */
export interface SedEffects {
  reads: string[];
  writes: string[];
  /** Shell commands the script's `e COMMAND` commands run. */
  commands: string[];
  /** Set when the script runs a command (`e`) or could not be parsed. */
  risk?: string;
}

/** Commands without arguments (GNU sed). */
const SIMPLE = new Set(['{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F']);

/**
 * Parses a sed script far enough to find its `e`, `r`, `R`, `w`, `W` commands and `s` flags.
 * Anything it cannot parse is reported as a risk, never ignored.
 */
export function sedScriptEffects(script: string): SedEffects {
  const out: SedEffects = { reads: [], writes: [], commands: [] };
  const n = script.length;
  let i = 0;
  const fail = (what: string): SedEffects => ({
    ...out,
    risk: `${what} in the sed script near ${JSON.stringify(script.slice(Math.max(0, i - 10), i + 10))}, so what it runs or writes cannot be checked`,
  });
  const blanks = () => {
    while (i < n && (script[i] === ' ' || script[i] === '\t')) i += 1;
  };
  const restOfLine = (): string => {
    const end = script.indexOf('\n', i);
    const text = script.slice(i, end < 0 ? n : end);
    i = end < 0 ? n : end;
    return text;
  };
  const until = (stops: string) => {
    while (i < n && !stops.includes(script[i]!)) i += 1;
  };
  // A regular expression up to the unescaped delimiter `d`; `[…]` may hold the delimiter.
  const regex = (d: string): boolean => {
    while (i < n) {
      const c = script[i]!;
      if (c === '\\') i += 2;
      else if (c === '[') {
        i += 1;
        if (script[i] === '^') i += 1;
        if (script[i] === ']') i += 1;
        while (i < n && script[i] !== ']') {
          if (script[i] === '[' && /[:.=]/.test(script[i + 1] ?? '')) {
            // A class like [:alpha:] inside the bracket expression.
            const close = script.indexOf(`${script[i + 1]}]`, i + 2);
            i = close < 0 ? n : close + 2;
          } else i += 1;
        }
        i += 1;
      } else if (c === d) {
        i += 1;
        return true;
      } else i += 1;
    }
    return false;
  };
  const replacement = (d: string): boolean => {
    while (i < n) {
      const c = script[i]!;
      if (c === '\\') i += 2;
      else {
        i += 1;
        if (c === d) return true;
      }
    }
    return false;
  };
  const address = (): boolean => {
    const c = script[i];
    if (c === undefined) return true;
    if (/[0-9]/.test(c)) {
      while (i < n && /[0-9~]/.test(script[i]!)) i += 1;
    } else if (c === '$') i += 1;
    else if (c === '/') {
      i += 1;
      if (!regex('/')) return false;
      while (i < n && /[IM]/.test(script[i]!)) i += 1;
    } else if (c === '\\') {
      const d = script[i + 1];
      if (d === undefined) return false;
      i += 2;
      if (!regex(d)) return false;
      while (i < n && /[IM]/.test(script[i]!)) i += 1;
    } else if (c === '+' || c === '~') {
      i += 1;
      while (i < n && /[0-9]/.test(script[i]!)) i += 1;
    }
    return true;
  };
  while (i < n) {
    while (i < n && /[\s;]/.test(script[i]!)) i += 1;
    if (i >= n) break;
    if (!address()) return fail('an unterminated address');
    blanks();
    if (script[i] === ',') {
      i += 1;
      blanks();
      if (!address()) return fail('an unterminated address');
    }
    blanks();
    while (script[i] === '!') {
      i += 1;
      blanks();
    }
    const command = script[i];
    i += 1;
    if (command === undefined) return fail('a missing command');
    if (SIMPLE.has(command)) continue;
    switch (command) {
      case '#':
        restOfLine();
        break;
      case ':':
      case 'b':
      case 't':
      case 'T':
      case 'v':
        until(';\n}');
        break;
      case 'q':
      case 'Q':
      case 'l':
      case 'L':
        blanks();
        while (i < n && /[0-9]/.test(script[i]!)) i += 1;
        break;
      case 'a':
      case 'i':
      case 'c':
        // Text to the end of the line; a line ending in a backslash continues.
        for (;;) {
          const line = restOfLine();
          if (!line.endsWith('\\') || i >= n) break;
          i += 1;
        }
        break;
      case 'r':
      case 'R':
        blanks();
        out.reads.push(restOfLine());
        break;
      case 'w':
      case 'W':
        blanks();
        out.writes.push(restOfLine());
        break;
      case 'e': {
        // `e COMMAND` runs COMMAND (decided as the command it is); a bare `e` runs the pattern space.
        const command = restOfLine().trim();
        if (command === '')
          return { ...out, risk: 'the e command runs the pattern space as a shell command' };
        out.commands.push(command);
        break;
      }
      case 's':
      case 'y': {
        const d = script[i];
        if (d === undefined || d === '\n' || d === '\\') return fail(`a bad delimiter after ${command}`);
        i += 1;
        if (!(command === 's' ? regex(d) : replacement(d)) || !replacement(d))
          return fail(`an unterminated ${command} command`);
        if (command === 'y') break;
        while (i < n && /[gpiImMe0-9]/.test(script[i]!)) {
          if (script[i] === 'e')
            return { ...out, risk: 'the s///e flag runs the pattern space as a shell command' };
          i += 1;
        }
        if (script[i] === 'w') {
          i += 1;
          blanks();
          out.writes.push(restOfLine());
        }
        break;
      }
      default:
        return fail(`an unknown command ${JSON.stringify(command)}`);
    }
  }
  return out;
}

/**
 * Why an awk program may run commands or write files (`system()`, a pipe, `print > file`,
 * `@load`), or undefined when it only reads. Conservative: a `>` after `print` counts even when
 * it is a comparison.
 */
export function awkProgramRisk(program: string): string | undefined {
  if (/\bsystem\s*\(/.test(program)) return 'the awk program calls system(), which runs a shell command';
  if (/(^|[^|])\|(?!\|)/.test(program)) return 'the awk program uses a pipe, which runs a shell command';
  if (/\bprintf?\b[^;\n}]*>/.test(program)) return 'the awk program redirects output to a file';
  if (/@(load|include)\b/.test(program)) return 'the awk program loads an extension or another program';
  return undefined;
}
