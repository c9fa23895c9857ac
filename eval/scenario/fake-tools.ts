/**
 * Scripted tools of a scenario (`fakeTools`): each call is answered from the tool's `results`
 * list, so cases can use tools the harness does not have (grep, search, web_fetch, …) and make
 * their output change between calls (polling).
 */
import { isDeepStrictEqual } from 'node:util';
import type { ToolDefinition, ToolOutput } from '../../harness/tools/types.ts';
import type { FakeResult, FakeToolSpec } from './types.ts';

/** Parameters of a fake tool that declares none: any object. */
export const DEFAULT_FAKE_PARAMETERS: Record<string, unknown> = { type: 'object' };

/** True when every key of `when` is present in `args` with a deep-equal value (absent `when` matches anything). */
export function matchesWhen(
  when: Record<string, unknown> | undefined,
  args: Record<string, unknown>,
): boolean {
  if (!when) return true;
  return Object.entries(when).every(
    ([key, value]) => Object.hasOwn(args, key) && isDeepStrictEqual(args[key], value),
  );
}

/**
 * Picks the result for `args`: the first matching entry not used yet (marking it used), else the
 * last matching entry again, else undefined. `used` holds indexes into `results` and is updated.
 */
export function pickResult(
  results: readonly FakeResult[],
  used: Set<number>,
  args: Record<string, unknown>,
): FakeResult | undefined {
  let last: number | undefined;
  for (let i = 0; i < results.length; i += 1) {
    if (!matchesWhen(results[i]!.when, args)) continue;
    if (!used.has(i)) {
      used.add(i);
      return results[i];
    }
    last = i;
  }
  return last === undefined ? undefined : results[last];
}

/**
 * True when a fake tool stands in for `bash`: named `bash` with a string `command` parameter. It
 * then gets the `command` hook, so the policy analyses its commands as it does the real tool's.
 */
export function runsCommand(name: string, spec: FakeToolSpec): boolean {
  const properties = (spec.parameters as { properties?: Record<string, { type?: unknown }> } | undefined)
    ?.properties;
  return name === 'bash' && properties?.command?.type === 'string';
}

/**
 * One `ToolDefinition` per fake tool, in declaration order. Each definition keeps its own
 * "used" state, so build a fresh set per run. `output` → `{ok: true, content}`; `error` →
 * `{ok: false, errorType: 'tool_failed', message}`; no matching entry → `tool_failed`
 * "no scripted result for these arguments: {…}". Effect defaults to `read`. A fake `bash`
 * (see {@link runsCommand}) is classed per command by the shell analysis, like the real one.
 */
export function fakeTools(specs: Record<string, FakeToolSpec> | undefined): ToolDefinition[] {
  return Object.entries(specs ?? {}).map(([name, spec]) => {
    const results = spec.results ?? [];
    const used = new Set<number>();
    const definition: ToolDefinition = {
      name,
      description: spec.description ?? `Scripted tool ${name}.`,
      parameters: spec.parameters ?? DEFAULT_FAKE_PARAMETERS,
      effect: spec.effect ?? 'read',
      async execute(args): Promise<ToolOutput> {
        const result = pickResult(results, used, args);
        if (!result)
          return {
            ok: false,
            errorType: 'tool_failed',
            message: `no scripted result for these arguments: ${JSON.stringify(args)}`,
          };
        if ('output' in result) return { ok: true, content: result.output };
        return { ok: false, errorType: 'tool_failed', message: result.error };
      },
    };
    if (spec.untrusted !== undefined) definition.untrusted = spec.untrusted;
    if (runsCommand(name, spec))
      definition.command = (args) => (typeof args.command === 'string' ? args.command : '');
    return definition;
  });
}
