/**
 * Redaction for recording (`docs/recording-format.md`, "Record"): response headers go
 * through the import allowlist, identity headers stay visible with the value `REDACTED`, the
 * request's user identifiers are replaced, organisation/project/user id shapes are replaced
 * wherever they appear (OpenAI's 429 messages name the organisation), and known secret values
 * (the API key, secret-named environment variables) are replaced everywhere. The final key-shape
 * scan (`eval/cassette/secret-scan.ts`) runs after all of this.
 */
import { allowlistHeaders } from '../import/common.ts';

/** The visible placeholder for anything removed. */
export const REDACTED = 'REDACTED';

/**
 * Headers kept by name with the value {@link REDACTED}, so a reader sees they were there:
 * cookies, credentials, organisation and project ids.
 */
const REDACTED_HEADERS: readonly string[] = [
  'set-cookie',
  'cookie',
  'authorization',
  'proxy-authorization',
  'api-key',
  'x-api-key',
  'openai-organization',
  'openai-project',
  'openai-user',
  'x-organization-id',
  'anthropic-organization-id',
];

/** Top-level request body fields that identify the end user; replaced with {@link REDACTED} when present. */
const REDACTED_BODY_FIELDS: readonly string[] = ['user', 'safety_identifier'];

/** Id shapes replaced wherever they occur: OpenAI organisation, project and user ids. */
const ID_SHAPES: readonly RegExp[] = [
  /\borg-[A-Za-z0-9]{8,}\b/g,
  /\bproj_[A-Za-z0-9]{8,}\b/g,
  /\buser-[A-Za-z0-9]{8,}\b/g,
];

/** Environment variable names whose values are treated as secrets. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|COOKIE|CREDENTIAL|AUTH/i;

/** Secret values shorter than this (in characters) are not replaced (too likely to hit ordinary text). */
const MIN_SECRET_LENGTH = 8;

/**
 * Response headers for a cassette: lower-case names; {@link REDACTED_HEADERS} kept as
 * `REDACTED`; the rest filtered by the import allowlist (`HEADER_ALLOWLIST`).
 */
export function redactHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  const entries: [string, string][] =
    headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  const raw: Record<string, string> = {};
  const out: Record<string, string> = {};
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    if (REDACTED_HEADERS.includes(lower)) out[lower] = REDACTED;
    else raw[lower] = value;
  }
  return { ...allowlistHeaders(raw), ...out };
}

/** A request body with {@link REDACTED_BODY_FIELDS} replaced (the input is not mutated). */
export function redactRequestBody(body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  for (const field of REDACTED_BODY_FIELDS)
    if (field in out && out[field] !== null && out[field] !== undefined) out[field] = REDACTED;
  return out;
}

/**
 * The values of secret-named environment variables (`*KEY*`, `*TOKEN*`, `*SECRET*`, `*PASSWORD*`,
 * `*COOKIE*`, `*CREDENTIAL*`, `*AUTH*`) at least {@link MIN_SECRET_LENGTH} characters long.
 */
export function secretValuesFromEnv(env: NodeJS.ProcessEnv): string[] {
  const out = new Set<string>();
  for (const [name, value] of Object.entries(env))
    if (SECRET_NAME.test(name) && value && value.length >= MIN_SECRET_LENGTH) out.add(value);
  return [...out];
}

/**
 * A deep copy of a JSON value where every string has each secret value and every
 * organisation/project/user id shape replaced with {@link REDACTED}. Object keys are kept.
 * Secrets shorter than {@link MIN_SECRET_LENGTH} are ignored.
 */
export function redactValues<T>(value: T, secrets: readonly string[]): T {
  const usable = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH))].sort(
    (a, b) => b.length - a.length,
  );
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') {
      let text = item;
      for (const secret of usable) if (text.includes(secret)) text = text.split(secret).join(REDACTED);
      for (const shape of ID_SHAPES) text = text.replace(shape, REDACTED);
      return text;
    }
    if (Array.isArray(item)) return item.map(walk);
    if (typeof item === 'object' && item !== null) {
      const out: Record<string, unknown> = {};
      for (const [key, member] of Object.entries(item)) out[key] = walk(member);
      return out;
    }
    return item;
  };
  return walk(value) as T;
}

/**
 * What the workspace's absolute path becomes in a cassette (it names the user's folders, and a replay runs
 * elsewhere).
 */
export const WORKSPACE_PLACEHOLDER = '$WORKSPACE';

/**
 * A deep copy of a JSON value with every occurrence of each `from` replaced by its `to` in every
 * string (object keys kept). Pairs are applied longest `from` first; a `from` shorter than 2
 * characters is ignored (replacing `/` would wreck every path).
 */
export function replaceInStrings<T>(value: T, pairs: readonly (readonly [string, string])[]): T {
  const usable = pairs.filter(([from]) => from.length >= 2).sort((a, b) => b[0].length - a[0].length);
  if (usable.length === 0) return value;
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string')
      return usable.reduce(
        (text, [from, to]) => (text.includes(from) ? text.split(from).join(to) : text),
        item,
      );
    if (Array.isArray(item)) return item.map(walk);
    if (typeof item === 'object' && item !== null)
      return Object.fromEntries(Object.entries(item).map(([key, member]) => [key, walk(member)]));
    return item;
  };
  return walk(value) as T;
}
