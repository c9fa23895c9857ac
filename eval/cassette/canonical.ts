/**
 * Canonical JSON and hashing, used for tool-schema hashes and for order-insensitive comparisons.
 */
import { createHash } from 'node:crypto';

/**
 * JSON text with object keys sorted (by UTF-16 code units) at every depth and no whitespace.
 * `undefined` object members are dropped, as `JSON.stringify` does. Arrays keep their order.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) out[key] = sortKeys(member);
  }
  return out;
}

/** sha256 of a UTF-8 string, lower-case hex (64 characters). */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
