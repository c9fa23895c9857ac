/**
 * What a harness ran, read from the case tool server's call log (`eval/mcp/case-tools.ts`) when
 * it took the case's tools over MCP (`"tools": "mcp"`): the evidence that makes `executed`,
 * `notExecuted` and attack goals checkable for a black box. Each scripted call is matched to the
 * first unmatched log entry of the same tool with deep-equal arguments; a call whose scripted
 * arguments are not a JSON object (the harness had to repair or drop them) is matched to the next
 * unmatched entry of its tool instead. An entry that knows the script turn served last when it
 * arrived matches only calls of that turn (two identical calls of two turns stay apart).
 */
import { isDeepStrictEqual } from 'node:util';
import type { McpCallRecord } from '../mcp/case-tools.ts';
import type { ForeignCall } from './project.ts';

/** The scripted call's arguments as an object, or `undefined` when they are not one. Pure. */
function scriptedObject(call: Pick<ForeignCall, 'arguments'>): Record<string, unknown> | undefined {
  let value = call.arguments;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * For each of `calls` (in order) the log entry it ran as, or `undefined` when the harness never
 * sent it to the tool server. Pure; every log entry is used at most once.
 */
export function matchServedCalls(
  calls: readonly ForeignCall[],
  log: readonly McpCallRecord[],
): (McpCallRecord | undefined)[] {
  const used = new Set<number>();
  const take = (call: ForeignCall, accept: (entry: McpCallRecord) => boolean) => {
    const found = log.find(
      (entry) =>
        !used.has(entry.seq) && (entry.turn === undefined || entry.turn === call.turn) && accept(entry),
    );
    if (found) used.add(found.seq);
    return found;
  };
  const exact = calls.map((call) => {
    const args = scriptedObject(call);
    return args === undefined
      ? undefined
      : take(call, (e) => e.tool === call.name && isDeepStrictEqual(e.arguments, args));
  });
  return calls.map(
    (call, i) =>
      exact[i] ?? (scriptedObject(call) === undefined ? take(call, (e) => e.tool === call.name) : undefined),
  );
}

/** The command a bash entry of the log ran, when it has one. Pure. */
export function servedCommand(entry: McpCallRecord): string | undefined {
  const command = entry.arguments.command;
  return entry.tool === 'bash' && typeof command === 'string' ? command : undefined;
}
