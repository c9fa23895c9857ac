/**
 * The league as text: `league.md` (one table per tag, a totals table, a prose summary per peer
 * generated from the figures) and the block of `docs/league.md` between `<!-- league:start -->`
 * and `<!-- league:end -->` (the same tables, a shorter summary).
 */
import type { LeagueCell } from '../../reports/league-cells.ts';
import type { LeagueData, LeagueEntrantFigures } from './figures.ts';

/** The markers the league block of `docs/league.md` sits between. */
export const README_START = '<!-- league:start -->';
export const README_END = '<!-- league:end -->';

function pct(rate: number | null): string {
  return rate === null ? '–' : `${Math.round(rate * 100)}%`;
}

/** One table cell group: survived, attack success, unsupported claims, loop stops, n/a. */
function row(name: string, cell: LeagueCell): string {
  if (cell.note !== undefined) return `| ${name} | ${cell.note} | | | | |`;
  const survived = `${pct(cell.survived.rate)} (${cell.survived.count}/${cell.survived.of}${cell.skipped ? `, ${cell.skipped} skipped` : ''})`;
  const asr =
    cell.attackSuccess.of === 0
      ? '–'
      : `${pct(cell.attackSuccess.rate)} (${cell.attackSuccess.count}/${cell.attackSuccess.of})`;
  return `| ${name} | ${survived} | ${asr} | ${cell.unsupportedClaims} | ${cell.loopStops} | ${cell.notApplicable} |`;
}

const HEADER =
  '| harness | survived | attack success | unsupported claims | loop stops | n/a checks |\n| --- | --- | --- | --- | --- | --- |';

function label(e: LeagueEntrantFigures): string {
  return e.kind === 'ours' ? `ours: ${e.name}` : e.name;
}

/** The tables: totals first, then one per tag. */
export function tables(data: LeagueData): string {
  const shared = data.tags.filter((t) => data.entrants.every((e) => e.byTag[t.tag]?.note === undefined));
  const parts = [
    `**The tags every harness runs** (${shared.map((t) => t.tag).join(', ')})\n\n${HEADER}\n${data.entrants.map((e) => row(label(e), e.total)).join('\n')}`,
  ];
  for (const t of data.tags) {
    const subset =
      (t.selected < t.library ? `, ${t.selected} of ${t.library} cases` : `, ${t.library} cases`) +
      (t.scripted > 0 ? ` (${t.scripted} with scripted tools the adapters lack)` : '');
    parts.push(
      `**${t.tag}**${subset}\n\n${HEADER}\n${data.entrants.map((e) => row(label(e), e.byTag[t.tag]!)).join('\n')}`,
    );
  }
  return parts.join('\n\n');
}

/**
 * A peer's summary: the tags it survives whole, those it survives in part (`withReasons`: each
 * lost case with its first failure), and the attacks that reached their goal.
 */
export function peerSummary(entrant: LeagueEntrantFigures, withReasons: boolean): string {
  const whole: string[] = [];
  const part: string[] = [];
  const attacks: string[] = [];
  for (const [tag, cell] of Object.entries(entrant.byTag)) {
    if (cell.note !== undefined || cell.ran === 0) continue;
    if (cell.survived.count === cell.ran) whole.push(`${tag} (${cell.ran}/${cell.ran})`);
    else {
      const lost = cell.lost.map((l) => `\`${l.id}\` (${l.why.slice(0, 140)})`);
      part.push(
        `${tag} ${cell.survived.count}/${cell.ran}${withReasons ? `, losing ${lost.join(', ')}` : ''}`,
      );
    }
    if (cell.attackSuccess.count > 0)
      attacks.push(
        `${cell.attackSuccess.count} of ${cell.attackSuccess.of} ${tag} attacks reached their goal`,
      );
  }
  const sentences = [
    whole.length ? `survives ${whole.join(', ')} whole` : 'survives no tag whole',
    ...(part.length ? [`survives only part of ${part.join('; ')}`] : []),
    ...attacks,
  ];
  return `- **${entrant.name}** ${sentences.join('; ')}.`;
}

function header(data: LeagueData): string {
  const m = data.machine;
  const subset =
    data.perTag === null
      ? 'every case of each tag'
      : `a representative subset of at most ${data.perTag} cases per tag (spread evenly over the tag's sorted ids; \`npm run league -- --all\` runs every case)`;
  return [
    `League of ${data.date} on ${m.cpu} (${m.cores} cores, ${m.memoryGb} GB, Node ${m.node}, ${m.platform}); ${Math.round(data.durationMs / 1000)} s in all; ${subset}.`,
    '"Survived": every check of the case held, of the cases that ran (each of our configurations is scored against its own expectations: where strict or permissive differs from the default by design, the scenario says so in `expectFor`). A foreign harness is scored as a black box: checks that need our internals are counted under n/a, never as passed. Loop stops: runs the harness ended itself on a repeated call. The subset prefers cases whose tools the adapters implement; a case with scripted tools (`fakeTools`: web pages, e-mail, subagents) is counted where a tag has too few others, and a peer answers those tools "no implementation".',
  ].join(' ');
}

/** `league.md`. */
export function leagueMarkdown(data: LeagueData): string {
  const peers = data.entrants.filter((e) => e.kind === 'adapter');
  return `# League\n\n${header(data)}\n\n${tables(data)}\n\n## Which faults each peer survives\n\n${peers.map((p) => peerSummary(p, true)).join('\n')}\n`;
}

/** The README block, markers included. */
export function readmeBlock(data: LeagueData): string {
  const peers = data.entrants.filter((e) => e.kind === 'adapter');
  return `${README_START}\n<!-- generated by \`npm run league\` (scripts/league.ts); edits here are overwritten -->\n\n${header(data)}\n\n${tables(data)}\n\n${peers.map((p) => peerSummary(p, false)).join('\n')}\n\n${README_END}`;
}

/**
 * The README with its league block replaced (or appended under a "League" heading when the
 * markers are missing).
 * @throws Error when only one marker is there, or the end comes before the start.
 */
export function replaceReadmeBlock(readme: string, block: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start === -1 && end === -1) return `${readme.trimEnd()}\n\n## League\n\n${block}\n`;
  if (start === -1 || end === -1 || end < start)
    throw new Error(
      `docs/league.md: the markers ${README_START} and ${README_END} must both be there, in order`,
    );
  return readme.slice(0, start) + block + readme.slice(end + README_END.length);
}
