/**
 * Differences between two harness configurations (the one a cassette was recorded with and the
 * one a replay runs under), as dotted keys (`permissions.effects.write`). Objects are compared
 * key by key; arrays and scalars are leaves (a changed bash rule list is one change of
 * `permissions.bash`). The `model` block is never compared: a replay takes it from the recording.
 */
import { canonicalJson } from '../cassette/canonical.ts';

/** One changed configuration key. `recorded`/`current` are `undefined` when the key is absent on that side. */
export interface ConfigChange {
  key: string;
  recorded: unknown;
  current: unknown;
}

/** Top-level keys left out of the comparison. */
export const IGNORED_CONFIG_KEYS: readonly string[] = ['model', '$schema', 'description'];

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every changed leaf key, sorted. `recorded` is `meta.config`; a string (a hash) or absence gives `[]`. */
export function diffConfigs(recorded: unknown, current: unknown): ConfigChange[] {
  if (!isObj(recorded) || !isObj(current)) return [];
  const out: ConfigChange[] = [];
  const walk = (a: unknown, b: unknown, key: string): void => {
    if (isObj(a) && isObj(b)) {
      for (const name of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
        if (key === '' && IGNORED_CONFIG_KEYS.includes(name)) continue;
        walk(a[name], b[name], key === '' ? name : `${key}.${name}`);
      }
      return;
    }
    if (a === undefined && b === undefined) return;
    if (a === undefined || b === undefined || canonicalJson(a) !== canonicalJson(b))
      out.push({ key, recorded: a, current: b });
  };
  walk(recorded, current, '');
  return out;
}

/** `permissions.effects.write "allow" → "ask"` (values as JSON, long ones cut). */
export function formatConfigChange(change: ConfigChange): string {
  const show = (value: unknown): string => {
    if (value === undefined) return '(absent)';
    const text = JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  };
  return `${change.key} ${show(change.recorded)} → ${show(change.current)}`;
}
