/**
 * "Did you mean …?" for unknown keys in scenarios, configurations, cassettes and the project
 * configuration, with commander's rule for unknown flags and commands: the optimal string
 * alignment distance (insert, delete, substitute, swap two neighbours; each 1), compared without
 * case, at most 3 and leaving more than 40% of the word in common. Our own twenty lines instead
 * of a dependency: the candidates are a schema's keys (tens), never long texts.
 */

/** The optimal string alignment distance (Levenshtein plus adjacent swaps), in UTF-16 code units. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 0; j <= b.length; j += 1) d[0]![j] = j;
  for (let i = 1; i <= a.length; i += 1)
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/**
 * The candidate closest to `word` (case-insensitive), or `undefined` when none is within 3 edits
 * with more than 40% of the word left in common. Ties go to the first candidate.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = editDistance(lower, candidate.toLowerCase());
    const similar = (Math.max(word.length, 1) - distance) / Math.max(word.length, 1) > 0.4;
    if (distance <= 3 && similar && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** ` (did you mean "x"?)`, or `''` when no candidate is close. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const found = closest(word, candidates);
  return found === undefined ? '' : ` (did you mean "${found}"?)`;
}

type SchemaNode = Record<string, unknown>;
const isNode = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A node with its local `$ref`s followed and its combinators (`allOf`, `anyOf`, `oneOf`, `then`, `else`) spread. */
function expand(root: SchemaNode, node: unknown, depth = 0): SchemaNode[] {
  if (!isNode(node) || depth > 20) return [];
  const ref = node.$ref;
  if (typeof ref === 'string') {
    if (!ref.startsWith('#')) return [];
    let target: unknown = root;
    for (const segment of ref.replace(/^#\/?/, '').split('/').filter(Boolean))
      target = isNode(target) ? target[segment.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
    return expand(root, target, depth + 1);
  }
  const out = [node];
  for (const key of ['allOf', 'anyOf', 'oneOf'])
    if (Array.isArray(node[key]))
      for (const sub of node[key] as unknown[]) out.push(...expand(root, sub, depth + 1));
  for (const key of ['then', 'else']) out.push(...expand(root, node[key], depth + 1));
  return out;
}

/**
 * The keys the schema knows for the object at `instancePath` (a JSON pointer into the data, as
 * Ajv reports it): the `properties` of every schema that can apply there, local `$ref`s and
 * combinators followed. Empty when the path leaves the schema.
 */
export function knownKeysAt(schema: unknown, instancePath: string): string[] {
  if (!isNode(schema)) return [];
  let nodes = expand(schema, schema);
  const segments = instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  for (const segment of segments) {
    const next: SchemaNode[] = [];
    for (const node of nodes) {
      const properties = isNode(node.properties) ? node.properties : {};
      if (Object.hasOwn(properties, segment)) next.push(...expand(schema, properties[segment]));
      else if (isNode(node.additionalProperties)) next.push(...expand(schema, node.additionalProperties));
      if (/^\d+$/.test(segment) && node.items !== undefined)
        next.push(...expand(schema, Array.isArray(node.items) ? node.items[Number(segment)] : node.items));
    }
    nodes = next;
  }
  const keys = new Set<string>();
  for (const node of nodes)
    if (isNode(node.properties)) for (const key of Object.keys(node.properties)) keys.add(key);
  return [...keys];
}

/**
 * The reason given for an unknown key: `unknown key "stopReson" (did you mean "stopReason"?)`,
 * or, when no known key is close, `unknown key "x" (keys are case-sensitive; known keys: a, b, …)`.
 */
export function unknownKeyReason(key: string, known: readonly string[]): string {
  const suggestion = didYouMean(key, known);
  if (suggestion) return `unknown key "${key}"${suggestion}`;
  const listed = known.length > 12 ? `${known.slice(0, 12).join(', ')}, …` : known.join(', ');
  return `unknown key "${key}" (keys are case-sensitive; ${known.length > 0 ? `known keys: ${listed}` : 'is it a typo?'})`;
}
