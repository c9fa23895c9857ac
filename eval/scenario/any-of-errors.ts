/**
 * Folds ajv's `anyOf` noise where the alternatives differ by JSON type (`events` is a list or
 * an object; a `count` is a number or `{ min, max }`): when exactly one alternative has the
 * value's type, only that alternative's errors are kept; when none has it, one error says which
 * types are allowed. Other `anyOf`s (several alternatives of the same type) are left alone.
 */
import type { ErrorObject } from 'ajv';

const jsonType = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : Number.isInteger(value)
        ? 'integer'
        : typeof value === 'number'
          ? 'number'
          : typeof value;

function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The `type` each alternative of an anyOf declares, by index (`undefined` when one declares none). */
function branchTypes(errors: readonly ErrorObject[], anyOf: ErrorObject): Map<number, string> {
  const types = new Map<number, string>();
  for (const error of errors) {
    if (error.keyword !== 'type' || error.instancePath !== anyOf.instancePath) continue;
    const match = new RegExp(`^${escapeRegex(anyOf.schemaPath)}/(\\d+)/type$`).exec(error.schemaPath);
    if (match) types.set(Number(match[1]), String((error.params as { type: unknown }).type));
  }
  return types;
}

/**
 * `errors` with type-discriminated `anyOf`s folded (see the file comment). `skip` names schema
 * paths whose `anyOf`s are handled elsewhere.
 */
export function foldTypedAnyOf(
  errors: readonly ErrorObject[],
  data: unknown,
  skip: (schemaPath: string) => boolean = () => false,
): ErrorObject[] {
  let out = [...errors];
  // Innermost first: a nested anyOf is folded before the one that contains it.
  const anyOfs = errors
    .filter((e) => e.keyword === 'anyOf' && !skip(e.schemaPath))
    .sort((a, b) => b.schemaPath.length - a.schemaPath.length);
  for (const anyOf of anyOfs) {
    if (!out.includes(anyOf)) continue;
    const prefix = `${anyOf.schemaPath}/`;
    const inBranch = (e: ErrorObject) => e.schemaPath.startsWith(prefix);
    const branchOf = (e: ErrorObject) => Number(e.schemaPath.slice(prefix.length).split('/')[0]);
    const mismatched = branchTypes(out, anyOf);
    const branches = new Set(out.filter(inBranch).map(branchOf));
    const matching = [...branches].filter((b) => !mismatched.has(b));
    if (mismatched.size === 0 || matching.length > 1) continue;
    if (matching.length === 1) {
      out = out.filter((e) => e !== anyOf && (!inBranch(e) || branchOf(e) === matching[0]));
      continue;
    }
    const allowed = [...new Set(mismatched.values())].join(' or ');
    const folded: ErrorObject = {
      ...anyOf,
      keyword: 'type',
      params: { type: allowed },
      message: `must be ${allowed}, got ${jsonType(valueAt(data, anyOf.instancePath))}`,
    };
    out = out.filter((e) => e !== anyOf && !inBranch(e));
    out.push(folded);
  }
  return out;
}
