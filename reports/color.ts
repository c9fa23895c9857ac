/**
 * Terminal colours that respect `NO_COLOR` (https://no-color.org) and `FORCE_COLOR`, and are
 * off when the stream is not a terminal.
 */

/** Whether to colour output written to `stream`. */
export function useColor(
  stream: { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY);
}

/** A palette: identity functions when colour is off. */
export function palette(enabled: boolean) {
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    green: wrap(32, 39),
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    dim: wrap(2, 22),
    bold: wrap(1, 22),
    cyan: wrap(36, 39),
  };
}
