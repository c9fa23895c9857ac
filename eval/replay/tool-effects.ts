/**
 * The effect class of a recorded (foreign) tool, so the permission policy decides recorded calls
 * as it would decide the harness's own: a tool that writes asks under the default configuration,
 * is denied under the strict one and allowed under the permissive one. The class comes from, in
 * order:
 * 1. a sidecar next to the cassette, `<cassette>.tools.json`:
 *    `{ "toolEffects": [{ "pattern": "save_*", "effect": "write" }, …] }`;
 * 2. the configuration's `replay.toolEffects` (`harness/config.ts`; default list below);
 * 3. the configuration's `replay.unknownToolEffect` (default `write`: a tool nobody classified
 *    is assumed to change something, the conservative choice).
 *
 * Rules are tried in order and the first match wins. A pattern is a glob (picomatch, `*` any
 * characters, `{a,b}` alternatives, case-insensitive) matched against the tool name in
 * snake_case (`getUser` → `get_user`, spaces and dashes → `_`) and against each of its word
 * suffixes, so `search*` matches `parallel_local_search_one` and `delete*` matches
 * `file_delete` but `add*` does not match `get_address`.
 */
import { existsSync, readFileSync } from 'node:fs';
import picomatch from 'picomatch';
import type { HarnessConfig } from '../../harness/config.ts';
import type { EffectClass } from '../../harness/tools/types.ts';
import { InputError } from '../errors.ts';

/** One rule: tools whose name matches `pattern` have effect `effect`. */
export interface ToolEffectRule {
  pattern: string;
  effect: EffectClass;
}

/** The effect of one tool and the rule that gave it (`sidecar:<pattern>`, `config:<pattern>`, `unknown`). */
export interface ToolEffect {
  tool: string;
  effect: EffectClass;
  rule: string;
}

/** The file name of a cassette's sidecar: `x.json` → `x.tools.json`. */
export function sidecarPath(cassetteFile: string): string {
  return cassetteFile.replace(/(\.json)?$/i, '.tools.json');
}

/** True for a sidecar file name (`*.tools.json`), which a cassette glob must skip. */
export function isSidecar(file: string): boolean {
  return /\.tools\.json$/i.test(file);
}

const EFFECTS: readonly EffectClass[] = ['read', 'write', 'irreversible'];

/**
 * Reads and checks `<cassette>.tools.json`; `[]` when there is none.
 * @throws InputError naming the file, the JSON path and the reason for a sidecar that is not
 *   `{ "toolEffects": [{ "pattern": string, "effect": "read" | "write" | "irreversible" }] }`.
 */
export function loadSidecar(cassetteFile: string): ToolEffectRule[] {
  const file = sidecarPath(cassetteFile);
  if (!existsSync(file)) return [];
  const problem = (path: string, reason: string) => new InputError([{ file, path, reason }]);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch (error) {
    throw problem('', `not JSON: ${(error as Error).message}`);
  }
  const rules = (value as { toolEffects?: unknown } | null)?.toolEffects;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Array.isArray(rules))
    throw problem('/toolEffects', 'a tool-effects sidecar needs a "toolEffects" list');
  const extra = Object.keys(value).filter(
    (key) => key !== 'toolEffects' && key !== '$schema' && key !== 'description',
  );
  if (extra.length > 0) throw problem(`/${extra[0]}`, 'unknown key (allowed: toolEffects, description)');
  return rules.map((rule, i) => {
    const r = rule as Partial<ToolEffectRule> | null;
    if (typeof r?.pattern !== 'string' || r.pattern === '')
      throw problem(`/toolEffects/${i}/pattern`, 'pattern must be a non-empty string');
    if (!EFFECTS.includes(r.effect as EffectClass))
      throw problem(`/toolEffects/${i}/effect`, `effect must be one of ${EFFECTS.join(', ')}`);
    return { pattern: r.pattern, effect: r.effect as EffectClass };
  });
}

/** A tool name in snake_case, lower case: `getUserById` → `get_user_by_id`, `Delegate work` → `delegate_work`. */
export function snakeName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

/** The name and each of its word suffixes: `parallel_local_search` → itself, `local_search`, `search`. */
function candidates(name: string): string[] {
  const words = snakeName(name).split('_').filter(Boolean);
  return words.map((_, i) => words.slice(i).join('_'));
}

/**
 * The effect class of `tool` under `sidecar` rules, then the configuration's rules, then its
 * default for unknown tools (see the module comment).
 */
export function toolEffect(
  tool: string,
  config: Pick<HarnessConfig, 'replay'>,
  sidecar: readonly ToolEffectRule[] = [],
): ToolEffect {
  const names = candidates(tool);
  const ruleSets: [string, readonly ToolEffectRule[]][] = [
    ['sidecar', sidecar],
    ['config', config.replay.toolEffects],
  ];
  for (const [source, rules] of ruleSets)
    for (const rule of rules) {
      const matches = picomatch(rule.pattern, { nocase: true, dot: true });
      if (names.some((name) => matches(name)) || matches(tool))
        return { tool, effect: rule.effect, rule: `${source}:${rule.pattern}` };
    }
  return { tool, effect: config.replay.unknownToolEffect, rule: 'unknown' };
}
