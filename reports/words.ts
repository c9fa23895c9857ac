/**
 * `n` with its noun, singular for one: `counted(1, 'fix', 'fixes')` → `1 fix`,
 * `counted(2, 'regression')` → `2 regressions`. `many` defaults to `one` + `s`.
 */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
