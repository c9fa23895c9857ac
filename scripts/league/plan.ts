/**
 * What `npm run league` runs: the entrants (ours under each shipped configuration in `configs/`,
 * each shipped adapter in `adapters/`), the fault-library tags each entrant runs, and the
 * representative subset of cases per tag that keeps the whole league under ~5 minutes on a
 * 2-core machine (`selectCases`).
 */

/** Ours: the shipped configurations, in the order of `npm start` first. */
export const OUR_CONFIGS: readonly string[] = [
  'configs/default.json',
  'configs/naive.json',
  'configs/strict.json',
  'configs/permissive.json',
];

/** The shipped adapters, by file; the name is the adapter file's `name`. */
export const ADAPTERS: readonly { name: string; file: string }[] = [
  { name: 'ai-sdk', file: 'adapters/ai-sdk.json' },
  { name: 'openai-agents', file: 'adapters/openai-agents.json' },
  { name: 'minimal-loop', file: 'adapters/minimal-loop.json' },
  { name: 'python-loop', file: 'adapters/python-loop.json' },
];

/**
 * Tags a foreign harness does not run, with the reason shown in the table. `escape` and
 * `sandbox`: the shipped adapters' tools run bash on this host with no sandbox, so an escape case
 * would really write outside the workspace (and the bench runs as whoever runs it). The others
 * score our internals (permission verdicts, sessions, subagents, context layers): a black box
 * would be all `not_applicable`.
 */
export const PEER_EXCLUDED_TAGS: Readonly<Record<string, string>> = {
  escape: 'not run: the adapters run bash unboxed on this host',
  sandbox: 'not run: the adapters run bash unboxed on this host',
  permissions: 'not run: scores approvals and verdicts, which a black box has none of',
  session: 'not run: scores our session files',
  subagent: 'not run: scores our subagents',
  context: 'not run: scores our context layers',
};

/** A scenario as the plan needs it. */
export interface PlannedScenario {
  id: string;
  tags: readonly string[];
}

/**
 * The group of a scenario: the folder of the fault library it lives in, which is the first part
 * of its id and its primary tag (`bad-json/trailing-comma` → `bad-json`).
 */
export function groupOf(scenario: PlannedScenario): string {
  return scenario.id.includes('/') ? scenario.id.split('/')[0]! : (scenario.tags[0] ?? 'untagged');
}

/**
 * The cases of each group, at most `perTag` of them (`Infinity`: all), spread evenly over the
 * group's ids in sorted order so the subset covers the whole group and is the same on every run.
 * @returns group → ids, groups sorted by name.
 */
export function selectCases(scenarios: readonly PlannedScenario[], perTag: number): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const s of scenarios) groups.set(groupOf(s), [...(groups.get(groupOf(s)) ?? []), s.id]);
  const out = new Map<string, string[]>();
  for (const group of [...groups.keys()].sort()) {
    const ids = [...(groups.get(group) ?? [])].sort();
    if (ids.length <= perTag) {
      out.set(group, ids);
      continue;
    }
    const picked = Array.from({ length: perTag }, (_, i) => ids[Math.floor((i * ids.length) / perTag)]!);
    out.set(group, picked);
  }
  return out;
}
