/**
 * The tool mapping of an adapter file (`docs/adapters.md`, "Tool mapping"): our tool names and
 * argument keys (`read_file {path}`) to the harness's own (`readFile {filePath}`). The model
 * server rewrites the scripted calls on the way out; scoring maps what the harness sent back
 * into our names, so a scenario written once runs against every harness.
 */
import type { ScriptedToolCall } from '../../harness/model/scripted-model.ts';

/** One tool's mapping: the harness's name for it and, per argument key of ours, the harness's key. */
export interface ToolMapping {
  name?: string;
  args?: Record<string, string>;
}

/** Our tool name → its mapping. Tools not listed keep their name and keys. */
export type ToolMap = Record<string, ToolMapping>;

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Renames the top-level keys of an object by `keys` (unlisted keys stay). Pure. */
function renameKeys(value: Record<string, unknown>, keys: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[keys[key] ?? key] = inner;
  return out;
}

/**
 * Maps arguments through `keys`: an object is renamed; a string holding a JSON object is parsed,
 * renamed and serialised again; anything else (invalid JSON, an array, a number) is returned
 * unchanged, so a scripted fault stays the same fault under every mapping.
 */
export function mapArguments(args: unknown, keys: Record<string, string> | undefined): unknown {
  if (!keys || Object.keys(keys).length === 0) return args;
  if (isObj(args)) return renameKeys(args, keys);
  if (typeof args !== 'string') return args;
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return args;
  }
  return isObj(parsed) ? JSON.stringify(renameKeys(parsed, keys)) : args;
}

/** A scripted call in the harness's names (our name when the map does not list it). Pure. */
export function mapCallOut(call: ScriptedToolCall, map: ToolMap | undefined): ScriptedToolCall {
  const mapping = map?.[call.name];
  if (!mapping) return call;
  return { ...call, name: mapping.name ?? call.name, arguments: mapArguments(call.arguments, mapping.args) };
}

/** The reverse map: the harness's tool name → ours with the harness's keys → ours. */
export function invertToolMap(map: ToolMap | undefined): ToolMap {
  const out: ToolMap = {};
  for (const [ours, mapping] of Object.entries(map ?? {})) {
    const args: Record<string, string> = {};
    for (const [ourKey, theirKey] of Object.entries(mapping.args ?? {})) args[theirKey] = ourKey;
    out[mapping.name ?? ours] = { name: ours, args };
  }
  return out;
}

/** Our tool name for the harness's (the name itself when the map does not list it). */
export function ourName(theirs: string, map: ToolMap | undefined): string {
  for (const [ours, mapping] of Object.entries(map ?? {})) if ((mapping.name ?? ours) === theirs) return ours;
  return theirs;
}
