/**
 * Expansion of file operands the way bash expands them before a program sees them: brace
 * expansion (`{outlink,docs}/x`, `{1..3}`; bash manual §3.5.1) and filename expansion (`out*`,
 * `?`, `[…]`; §3.5.8). The path policy resolves every resulting path, so `cat out*\/secret`
 * through a link that points outside the workspace is caught like `cat outlink/secret`.
 *
 * Filename expansion reads the real folders segment by segment (`readdir` follows links as
 * the shell does, and lists links, dangling ones included, as entries); each glob segment is
 * matched with picomatch. Matching is a superset of bash's: dot files match too, and
 * `globstar` is off as in a non-interactive bash, so `**` is `*`.
 */
import { lstat, readdir } from 'node:fs/promises';
import picomatch from 'picomatch';

/** More words than this from one operand are not checked one by one: ask. */
export const MAX_EXPANSION = 1000;

const GLOB = /[*?[]/;
const SEQUENCE = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/;

/** The words of a brace sequence `{a..e}` / `{1..10..2}` / `{01..10}`; null when it is no sequence (`{a..3}`), undefined when it is too long. */
function sequence(body: string, limit: number): string[] | null | undefined {
  const m = SEQUENCE.exec(body);
  if (!m) return null;
  const [from, to, stepText] = [m[1]!, m[2]!, m[3]];
  const numeric = /\d/.test(from) && /\d/.test(to);
  if (!numeric && (/\d/.test(from) || /\d/.test(to))) return null;
  const a = numeric ? Number(from) : from.charCodeAt(0);
  const b = numeric ? Number(to) : to.charCodeAt(0);
  const step = Math.abs(Number(stepText ?? 1)) || 1;
  if (Math.abs(b - a) / step + 1 > limit) return undefined;
  const width = numeric && (/^-?0\d/.test(from) || /^-?0\d/.test(to)) ? Math.max(from.length, to.length) : 0;
  const out: string[] = [];
  for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? step : -step)
    out.push(numeric ? String(v).padStart(width, '0') : String.fromCharCode(v));
  return out;
}

/** The first brace expression of `word` that bash expands: where it is and its alternatives. */
function firstBrace(
  word: string,
  limit: number,
): { start: number; end: number; parts: string[] } | undefined | 'too-many' {
  for (let start = word.indexOf('{'); start >= 0; start = word.indexOf('{', start + 1)) {
    if (word[start - 1] === '$') continue;
    let depth = 0;
    const commas: number[] = [];
    let end = -1;
    for (let i = start; i < word.length; i += 1) {
      const c = word[i];
      if (c === '{') depth += 1;
      else if (c === '}') {
        depth -= 1;
        if (depth === 0) {
          end = i;
          break;
        }
      } else if (c === ',' && depth === 1) commas.push(i);
    }
    if (end < 0) return undefined;
    const body = word.slice(start + 1, end);
    if (commas.length > 0) {
      const bounds = [start, ...commas, end];
      return { start, end, parts: bounds.slice(0, -1).map((b, k) => word.slice(b + 1, bounds[k + 1])) };
    }
    const parts = sequence(body, limit);
    if (parts === undefined) return 'too-many';
    if (parts) return { start, end, parts };
  }
  return undefined;
}

/**
 * Brace expansion of one word (no file system): alternatives and sequences, nested, left to
 * right; a brace with neither a comma nor a sequence stays as written. Undefined when the word
 * expands to more than `limit` words.
 */
export function expandBraces(word: string, limit = MAX_EXPANSION): string[] | undefined {
  const results: string[] = [];
  const stack = [word];
  while (stack.length > 0) {
    const current = stack.pop()!;
    const brace = firstBrace(current, limit);
    if (brace === 'too-many') return undefined;
    if (!brace) {
      results.push(current);
      if (results.length > limit) return undefined;
      continue;
    }
    for (let k = brace.parts.length - 1; k >= 0; k -= 1)
      stack.push(current.slice(0, brace.start) + brace.parts[k] + current.slice(brace.end + 1));
    if (stack.length > limit) return undefined;
  }
  return results;
}

/** True when `word` has glob characters (after brace expansion). */
export function hasGlob(word: string): boolean {
  return GLOB.test(word);
}

async function names(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch {
    return [];
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * The paths a glob pattern names under `cwd` (absolute patterns from `/`), as written: links
 * are not resolved here (resolve each with `resolvePath`). Like bash, only paths that exist
 * are returned (a dangling link exists); `[]` when nothing matches (bash then passes the
 * pattern on as written), undefined when more than `limit` paths match.
 */
export async function expandGlob(
  pattern: string,
  cwd: string,
  limit = MAX_EXPANSION,
): Promise<string[] | undefined> {
  const absolute = pattern.startsWith('/');
  const segments = pattern.split('/');
  let current = [absolute ? '' : cwd];
  for (let k = absolute ? 1 : 0; k < segments.length; k += 1) {
    const segment = segments[k]!;
    if (!hasGlob(segment)) {
      current = current.map((c) => `${c}/${segment}`);
      continue;
    }
    const match = picomatch(segment, { dot: true, nobrace: true, noextglob: true, nonegate: true });
    const next: string[] = [];
    for (const folder of current) {
      for (const name of await names(folder || '/')) {
        if (!match(name)) continue;
        next.push(`${folder}/${name}`);
        if (next.length > limit) return undefined;
      }
    }
    if (next.length === 0) return [];
    current = next;
  }
  const found: string[] = [];
  for (const candidate of current) if (await exists(candidate)) found.push(candidate);
  return found;
}
