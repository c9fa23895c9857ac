/**
 * JSON pointers (RFC 6901) into a parsed scenario: their segments, a child pointer, and the value
 * one points at. Used to locate problems in the source (`parse.ts`) and to word them
 * (`validate.ts`, `schema-errors.ts`).
 */

/** The unescaped segments of `pointer` (`''` and `'/'` are the root: none). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** The pointer to `key` under `pointer`, with `~` and `/` escaped. */
export function pointerChild(pointer: string, key: string): string {
  return `${pointer === '/' ? '' : pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/** The value `pointer` points at in `root`, or undefined when there is none. */
export function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const segment of pointerSegments(pointer)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}
