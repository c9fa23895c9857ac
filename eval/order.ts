/**
 * The one order for ids and file names in the bench: by UTF-16 code unit, as `Array.prototype.sort`
 * does without a comparator. Unlike `localeCompare`, it does not depend on the machine's locale, so
 * shards, merged results and reports order cases the same way on every CI runner.
 * @returns negative, zero or positive, like any comparator
 */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
