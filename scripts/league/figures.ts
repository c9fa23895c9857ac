/**
 * The league's figures, computed from the results files of the league's runs alone (a pure
 * function): per entrant and per tag, the share of cases survived (passed, of those that ran),
 * the attack success rate over the injection cases, the unsupported completion claims, the loop
 * stops (runs the harness itself ended while the scripted model kept repeating a call) and the
 * checks scored `not_applicable` (they need our internals; never counted as passed).
 */
import type { CaseResult } from '../../eval/results.ts';
import { cellOf, type LeagueCell, notRun } from '../../reports/league-cells.ts';

/** One entrant's row set. */
export interface LeagueEntrantFigures {
  name: string;
  kind: 'ours' | 'adapter';
  file: string;
  byTag: Record<string, LeagueCell>;
  total: LeagueCell;
}

/** `reports/league/league.json`. */
export interface LeagueData {
  format: 'harness-bench.league';
  version: 1;
  /** ISO date (UTC) of the run. */
  date: string;
  machine: { cpu: string; cores: number; memoryGb: number; node: string; platform: string };
  /** Wall time of the whole league, ms. */
  durationMs: number;
  /** Cases per tag at most (`null`: every case). */
  perTag: number | null;
  /**
   * Cases in the fault library per tag, how many the league ran, and how many of those declare
   * scripted tools the shipped adapters lack (a peer answers them "no implementation").
   */
  tags: { tag: string; library: number; selected: number; scripted: number }[];
  entrants: LeagueEntrantFigures[];
}

/**
 * The figures of one entrant: its cases (those of configuration `config`, by default the
 * entrant's name) grouped by `plan` (tag → selected ids); tags in `excluded` get a note instead.
 * `total` sums the tags of `totalTags` (default: every tag it ran), so entrants compare on the same cases.
 */
export function entrantFigures(
  entrant: { name: string; kind: 'ours' | 'adapter'; file: string },
  cases: readonly CaseResult[],
  plan: ReadonlyMap<string, readonly string[]>,
  excluded: Readonly<Record<string, string>> = {},
  config: string = entrant.name,
  totalTags?: ReadonlySet<string>,
): LeagueEntrantFigures {
  const byId = new Map(cases.filter((c) => c.config === config).map((c) => [c.id, c]));
  const byTag: Record<string, LeagueCell> = {};
  const all: CaseResult[] = [];
  let selected = 0;
  for (const [tag, ids] of plan) {
    const note = excluded[tag];
    if (note !== undefined) {
      byTag[tag] = notRun(ids.length, note);
      continue;
    }
    const mine = ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    byTag[tag] = cellOf(mine, ids.length);
    if (totalTags && !totalTags.has(tag)) continue;
    all.push(...mine);
    selected += ids.length;
  }
  return { ...entrant, byTag, total: cellOf(all, selected) };
}
