/**
 * Which cases a run keeps: `--filter TEXT` (repeatable; a case whose id contains any of them,
 * without case) and `--tag TAG` (repeatable; a case that has any of them; `--tag '!TAG'` drops
 * the cases that have it). Both together: a case must pass both. `--list` prints the cases that
 * would run, with their tags.
 */
import type { NamedConfig } from '../eval/config-load.ts';
import { isImported } from '../eval/run-recording.ts';
import type { LoadedScenario } from '../eval/scenario/types.ts';
import type { LoadedCassette, PlannedCase } from '../eval/suite.ts';

/** The selection flags of `run`. */
export interface Selection {
  filters: readonly string[];
  tags: readonly string[];
}

/** The tags of a recording case, as its result will carry them (`eval/run-recording.ts`). */
export function recordingTags(recording: LoadedCassette): string[] {
  return ['recording', ...(isImported(recording.cassette) ? ['imported'] : [])];
}

/** True when a case with this id and these tags is selected. */
export function selects(selection: Selection, id: string, tags: readonly string[]): boolean {
  const lower = id.toLowerCase();
  if (selection.filters.length > 0 && !selection.filters.some((f) => lower.includes(f.toLowerCase())))
    return false;
  const include = selection.tags.filter((t) => !t.startsWith('!'));
  const exclude = selection.tags.filter((t) => t.startsWith('!')).map((t) => t.slice(1));
  if (exclude.some((t) => tags.includes(t))) return false;
  return include.length === 0 || include.some((t) => tags.includes(t));
}

/** The scenarios and recordings a selection keeps (their order unchanged). */
export function selectInputs(
  selection: Selection,
  scenarios: readonly LoadedScenario[],
  recordings: readonly LoadedCassette[],
): { scenarios: LoadedScenario[]; recordings: LoadedCassette[] } {
  return {
    scenarios: scenarios.filter((s) => selects(selection, s.scenario.id, s.scenario.tags ?? [])),
    recordings: recordings.filter((r) =>
      selects(selection, `recording/${r.cassette.meta.id}`, recordingTags(r)),
    ),
  };
}

/** What the selection flags were, for messages: `--filter "a" --tag "b"`. */
export function describeSelection(selection: Selection): string {
  return [
    ...selection.filters.map((f) => `--filter ${JSON.stringify(f)}`),
    ...selection.tags.map((t) => `--tag ${JSON.stringify(t)}`),
  ].join(' ');
}

/**
 * The lines of `--list`: one per planned case (`id  (config)  [tags]`), then a count line.
 * The configuration is shown only when there are several.
 */
export function listLines(planned: readonly PlannedCase[], configs: readonly NamedConfig[]): string[] {
  const width = Math.min(60, Math.max(0, ...planned.map((c) => c.id.length)));
  const lines = planned.map((c) => {
    const tags = c.kind === 'scenario' ? (c.scenario.scenario.tags ?? []) : recordingTags(c.recording);
    const config = configs.length > 1 ? `  (${c.config.name})` : '';
    return `${c.id.padEnd(width)}${config}  [${tags.join(', ')}]`;
  });
  const scenarios = planned.filter((c) => c.kind === 'scenario').length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  lines.push(
    `${plural(planned.length, 'case')} (${plural(scenarios, 'scenario')}, ${plural(planned.length - scenarios, 'recording')}) under ${plural(configs.length, 'configuration')}: ${configs.map((c) => c.name).join(', ')}`,
  );
  return lines;
}
