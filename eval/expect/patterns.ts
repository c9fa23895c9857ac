/**
 * Regular expressions as scenarios write them: `"/body/flags"` (JavaScript syntax, flags from
 * `dgimsuyv`) or a bare body with no flags (`"^Done"`). The loader compiles every one before a
 * case runs, so a broken pattern is bad input with its JSON path, never a failed check.
 */

const SLASHED = /^\/([\s\S]*)\/([dgimsuyv]*)$/;

/**
 * Compiles a scenario regular expression. The `g` and `y` flags are dropped (a check asks
 * "does it match", and a global regex remembers `lastIndex` between tests).
 * @throws SyntaxError when the pattern is not a valid JavaScript regular expression.
 */
export function parseRegex(text: string): RegExp {
  const slashed = SLASHED.exec(text);
  const [source, flags] = slashed ? [slashed[1]!, slashed[2]!] : [text, ''];
  return new RegExp(source, flags.replace(/[gy]/g, ''));
}

/** The problem with a pattern as one sentence, or `undefined` when it compiles. */
export function regexProblem(text: string): string | undefined {
  try {
    parseRegex(text);
    return undefined;
  } catch (error) {
    return `not a valid regular expression: ${(error as Error).message}`;
  }
}
