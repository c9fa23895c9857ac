/**
 * The loader's semantic checks of an `expect` block, beyond its JSON Schema: every regular
 * expression compiles and every item checks something. Run on whatever has the right shape, so one pass reports every problem
 * (`eval/scenario/validate.ts` calls it for `expect` and each block of `expectFor`).
 */
import { regexProblem } from './patterns.ts';

type Add = (path: string, reason: string) => void;

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function checkRegexList(value: unknown, at: string, add: Add): void {
  if (!Array.isArray(value)) return;
  value.forEach((pattern, i) => {
    if (typeof pattern !== 'string') return;
    const problem = regexProblem(pattern);
    if (problem) add(`${at}/${i}`, problem);
  });
}

/** `/a/b` with `key` appended as a JSON pointer segment (`~` and `/` escaped). */
function child(pointer: string, key: string): string {
  return `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/** Every expectation block of a scenario with its JSON pointer: `expect`, then each of `expectFor`. */
export function expectationBlocks(root: Record<string, unknown>): [unknown, string][] {
  return [
    [root.expect, '/expect'],
    ...Object.entries(asRecord(root.expectFor)).map(([name, block]): [unknown, string] => [
      block,
      child('/expectFor', name),
    ]),
  ];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `root` (a scenario, or a cassette's expectation block) with the `null`s of its `expectFor`
 * blocks taken out, for the JSON Schema: a `null` in a block removes what `expect` says at the
 * same place (`eval/scenario/check.ts` expectationsFor), so it is valid only where `expect` says
 * something; every other `null` is reported through `add` ("removes nothing").
 */
export function withoutRemovals(root: unknown, add: Add): unknown {
  if (!isRecord(root) || !isRecord(root.expectFor)) return root;
  const strip = (block: unknown, base: unknown, at: string, where: string): unknown => {
    if (!isRecord(block)) return block;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(block)) {
      const under = isRecord(base) ? base[key] : undefined;
      if (value === null) {
        if (under === undefined)
          add(child(at, key), `null removes what expect says here, and ${child(where, key)} says nothing`);
        continue;
      }
      out[key] = strip(value, under, child(at, key), child(where, key));
    }
    return out;
  };
  const expectFor = Object.fromEntries(
    Object.entries(root.expectFor).map(([name, block]) => [
      name,
      strip(block, root.expect, child('/expectFor', name), '/expect'),
    ]),
  );
  return { ...root, expectFor };
}

/**
 * Every call id an expectation block names, with its JSON pointer: `executed`, `notExecuted`,
 * the keys of `results` and `permissions`, `grants.usedBy`, `attack.goalCalls`, and an
 * `events.scope` that is not `top`, `each` or `all`. The loader checks each against the script.
 */
export function namedCallIds(value: unknown, at: string): [string, string][] {
  const expect = asRecord(value);
  const named: [string, string][] = [];
  const list = (items: unknown, path: string) => {
    if (Array.isArray(items))
      for (const [i, id] of items.entries()) if (typeof id === 'string') named.push([id, `${path}/${i}`]);
  };
  list(expect.executed, `${at}/executed`);
  list(expect.notExecuted, `${at}/notExecuted`);
  for (const key of ['results', 'permissions'] as const)
    for (const id of Object.keys(asRecord(expect[key]))) named.push([id, child(`${at}/${key}`, id)]);
  list(asRecord(expect.grants).usedBy, `${at}/grants/usedBy`);
  list(asRecord(expect.attack).goalCalls, `${at}/attack/goalCalls`);
  const scope = asRecord(expect.events).scope;
  if (typeof scope === 'string' && !['top', 'each', 'all'].includes(scope))
    named.push([scope, `${at}/events/scope`]);
  return named;
}

/**
 * Reports each problem of the expectation object `value` found at JSON pointer `at` (e.g.
 * `/expect`) through `add`.
 */
export function expectationProblems(value: unknown, at: string, add: Add): void {
  const expect = asRecord(value);
  const finalAnswer = asRecord(expect.finalAnswer);
  checkRegexList(finalAnswer.matches, `${at}/finalAnswer/matches`, add);
  checkRegexList(finalAnswer.excludes, `${at}/finalAnswer/excludes`, add);
  if (Array.isArray(expect.requests))
    expect.requests.forEach((item, i) => {
      const record = asRecord(item);
      if (!('contains' in record || 'absent' in record || 'maxTokens' in record))
        add(`${at}/requests/${i}`, 'this item checks nothing: give "contains", "absent" or "maxTokens"');
      for (const key of ['contains', 'absent'] as const) {
        const list = asRecord(item)[key];
        if (!Array.isArray(list)) continue;
        list.forEach((pattern, j) => {
          const regex = asRecord(pattern).regex;
          const problem = typeof regex === 'string' ? regexProblem(regex) : undefined;
          if (problem) add(`${at}/requests/${i}/${key}/${j}/regex`, problem);
        });
      }
    });
}
