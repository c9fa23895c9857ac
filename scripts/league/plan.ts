/**
 * What `npm run league` runs: the entrants (ours under each shipped configuration in `configs/`,
 * each shipped adapter in `adapters/`), the fault-library tags each entrant runs, and the
 * representative subset of cases per tag that keeps the whole league under ~5 minutes on a
 * 2-core machine (`selectCases`).
 */
import { ownShellStandsIn } from '../../eval/adapters/applies.ts';
import { scriptCallTools } from '../../eval/blackbox/goals.ts';
import type { Scenario } from '../../eval/scenario/types.ts';

/** Ours: the shipped configurations, in the order of `npm start` first. */
export const OUR_CONFIGS: readonly string[] = [
  'configs/default.json',
  'configs/naive.json',
  'configs/strict.json',
  'configs/permissive.json',
];

/** The shipped adapters, by file; the name is the adapter file's `name`. */
export const ADAPTERS: readonly { name: string; file: string }[] = [
  // Ours through the model endpoint and the MCP tools, scored as a black box like every peer:
  // the calibration row (beside ours in-process, the difference is the bench, not the harness).
  { name: 'ours-served', file: 'adapters/ours-served.json' },
  { name: 'ai-sdk', file: 'adapters/ai-sdk.json' },
  { name: 'openai-agents', file: 'adapters/openai-agents.json' },
  { name: 'langgraph', file: 'adapters/langgraph.json' },
  { name: 'openai-runtools', file: 'adapters/openai-runtools.json' },
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
  /**
   * False when the scenario declares a tool the shipped adapters do not implement (its scripted
   * `fakeTools`, answered from the scenario's results in our harness only): a peer would be
   * scored on a missing tool rather than on the fault. Such cases are picked last.
   */
  peerRunnable?: boolean;
}

/** The tools the shipped adapters implement (adapters/workspace-tools.mjs, adapters/python_loop.py). */
export const ADAPTER_TOOLS: ReadonlySet<string> = new Set([
  'read_file',
  'write_file',
  'list_files',
  'list_dir',
  'str_replace',
  'bash',
]);

/**
 * Whether a scenario uses only tools the shipped adapters implement, and its script calls no
 * scripted tool but a blank scripted `bash`, which a hand-written loop's own shell runs
 * (`ownShellStandsIn`, `eval/adapters/applies.ts`). Pure.
 */
export function peerRunnable(scenario: Pick<Scenario, 'tools' | 'fakeTools' | 'model'>): boolean {
  const ownShell = ownShellStandsIn(scenario, { toolset: [...ADAPTER_TOOLS] });
  const called = new Set(scriptCallTools(scenario.model ?? []).values());
  const needed = Object.keys(scenario.fakeTools ?? {}).filter(
    (name) => called.has(name) && !(ownShell && name === 'bash'),
  );
  return needed.length === 0 && (scenario.tools ?? []).every((t) => ADAPTER_TOOLS.has(t));
}

/** `count` ids spread evenly over `ids` (sorted), all of them when there are no more. */
function spread(ids: readonly string[], count: number): string[] {
  const sorted = [...ids].sort();
  if (sorted.length <= count) return sorted;
  return Array.from({ length: count }, (_, i) => sorted[Math.floor((i * sorted.length) / count)]!);
}

/**
 * The group of a scenario: the folder of the fault library it lives in, which is the first part
 * of its id and its primary tag (`bad-json/trailing-comma` → `bad-json`).
 */
export function groupOf(scenario: PlannedScenario): string {
  return scenario.id.includes('/') ? scenario.id.split('/')[0]! : (scenario.tags[0] ?? 'untagged');
}

/**
 * Groups that run more cases than `--per-tag`: every injection case, so attack success rests on
 * at least 20 cases per harness, the hand-written loops' 24 workspace-file attacks included (fewer
 * would make one case a 5-point swing).
 */
export const MIN_PER_GROUP: Readonly<Record<string, number>> = { injection: Number.POSITIVE_INFINITY };

/**
 * The cases of each group, at most `perTag` of them (at least {@link MIN_PER_GROUP} for the
 * groups named there) (`Infinity`: all): first the cases a peer can
 * run (`peerRunnable` not false), then, to fill up, the others; each part spread evenly over its
 * sorted ids, so the subset covers the group and is the same on every run.
 * @returns group → ids (sorted), groups sorted by name.
 */
export function selectCases(scenarios: readonly PlannedScenario[], perTag: number): Map<string, string[]> {
  const groups = new Map<string, PlannedScenario[]>();
  for (const s of scenarios) groups.set(groupOf(s), [...(groups.get(groupOf(s)) ?? []), s]);
  const out = new Map<string, string[]>();
  for (const group of [...groups.keys()].sort()) {
    const members = groups.get(group) ?? [];
    const count = Math.max(perTag, MIN_PER_GROUP[group] ?? 0);
    const first = spread(
      members.filter((s) => s.peerRunnable !== false).map((s) => s.id),
      count,
    );
    const rest = spread(
      members.filter((s) => s.peerRunnable === false).map((s) => s.id),
      count - first.length,
    );
    out.set(group, [...first, ...rest].sort());
  }
  return out;
}
