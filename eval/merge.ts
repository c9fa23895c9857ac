/**
 * Joining the results files of a sharded run (`run --shard i/n` on several machines) into the one
 * file the unsharded run writes: the same cases in the plan's order, the summary recomputed, no
 * `shard` block. Apart from `startedAt` (the earliest shard's) and fields ending in `Ms`
 * (`durationMs` is the slowest shard's), the merged file equals the unsharded one byte for byte.
 *
 * The inputs must be every shard of one plan: the same format, tool version, configurations,
 * shard count and plan fingerprint, each shard once. Anything else is refused with every problem
 * named (exit 2), and nothing is written.
 */
import { Ajv } from 'ajv';
import { InputError, parseJsonInput, problemsFromAjv, readInputText, type InputProblem } from './errors.ts';
import { RESULTS_SCHEMA } from './results-schema.ts';
import { summarise, type CaseResult, type ResultsFile } from './results.ts';
import { compareConfigs } from './compare/index.ts';
import { repeatSummaryOf } from './compare/repeat.ts';
import { compareCases, shardKey, shardOf } from './shard.ts';

/** One input of {@link mergeResults}: where it came from (for messages) and its content. */
export interface MergeInput {
  file: string;
  results: ResultsFile;
}

/** The merged file and what the caller should tell the user. */
export interface MergeOutcome {
  results: ResultsFile;
  /** Lines for stderr: shards that stopped early (`--bail`) and hold fewer cases than assigned. */
  warnings: string[];
}

const validateResults = new Ajv({ allErrors: true, strict: false }).compile(RESULTS_SCHEMA);

/**
 * Reads a results file and checks it against the results schema.
 * @throws InputError naming the file and each problem (unreadable, not JSON, schema).
 */
export function readResultsFile(file: string, shown = file): MergeInput {
  const text = readInputText(file, shown, 'the results file');
  return { file: shown, results: checkResultsShape(parseJsonInput(text, shown), shown) };
}

/**
 * Checks parsed JSON against the results schema (`results-schema.ts`): the format first, then
 * every field, so a damaged file is refused with each problem named instead of failing later in
 * whatever reads it (`report`, `show`, `run --baseline`, `merge`).
 * @param shown the file as messages name it
 * @returns the value as a results file
 * @throws InputError naming `shown`, the JSON path and the reason of each problem
 */
export function checkResultsShape(value: unknown, shown: string): ResultsFile {
  if ((value as { format?: unknown } | null)?.format !== 'harness-bench.results')
    throw new InputError([
      {
        file: shown,
        path: '/format',
        reason: 'not a harness-bench results file (format harness-bench.results)',
      },
    ]);
  if (!validateResults(value)) throw new InputError(problemsFromAjv(shown, validateResults.errors));
  return value as unknown as ResultsFile;
}

/**
 * Merges the results files of every shard of one sharded run.
 * @throws InputError (exit 2) listing every problem: no input, an input that is not a shard,
 *   inputs of different tool versions, configurations, shard counts or plans, a shard given twice
 *   or missing, a case in two inputs or in the wrong shard.
 */
export function mergeResults(inputs: readonly MergeInput[]): MergeOutcome {
  const problems: InputProblem[] = [];
  if (inputs.length === 0)
    throw new InputError([{ file: 'merge', path: '', reason: 'no results file to merge' }]);
  const first = inputs[0]!;
  const refShard = first.results.shard;
  const configKey = (r: ResultsFile) => JSON.stringify(r.configs);
  for (const input of inputs) {
    const { results, file } = input;
    const shard = results.shard;
    if (!shard) {
      problems.push({
        file,
        path: '/shard',
        reason: 'not a shard: merge joins the files of `harness-bench run --shard i/n`',
      });
      continue;
    }
    if (input === first) continue;
    const against = `than ${first.file}`;
    if (results.tool.version !== first.results.tool.version)
      problems.push({
        file,
        path: '/tool/version',
        reason: `written by harness-bench ${results.tool.version}, another version ${against} (${first.results.tool.version})`,
      });
    if (configKey(results) !== configKey(first.results))
      problems.push({
        file,
        path: '/configs',
        reason: `other configurations ${against}: ${describeConfigs(results)} vs ${describeConfigs(first.results)}`,
      });
    if (refShard && shard.count !== refShard.count)
      problems.push({
        file,
        path: '/shard/count',
        reason: `a shard of ${shard.count}, but ${first.file} is a shard of ${refShard.count}`,
      });
    else if (refShard && shard.fingerprint !== refShard.fingerprint)
      problems.push({
        file,
        path: '/shard/fingerprint',
        reason: `a shard of another suite ${against} (the scenarios, recordings, configurations or filter differ)`,
      });
  }
  if (problems.length > 0) throw new InputError(problems);

  const count = refShard!.count;
  const seenShard = new Map<number, string>();
  const seenCase = new Map<string, string>();
  const warnings: string[] = [];
  const cases: CaseResult[] = [];
  for (const { file, results } of inputs) {
    const shard = results.shard!;
    const twice = seenShard.get(shard.index);
    if (twice !== undefined)
      problems.push({
        file,
        path: '/shard/index',
        reason: `shard ${shard.index}/${count} again (also ${twice})`,
      });
    seenShard.set(shard.index, file);
    for (const [i, c] of results.cases.entries()) {
      const key = shardKey(c.config, c.id);
      const other = seenCase.get(key);
      if (other !== undefined)
        problems.push({
          file,
          path: `/cases/${i}`,
          reason: `case ${c.id} (${c.config}) is also in ${other}`,
        });
      seenCase.set(key, file);
      const belongs = shardOf(c.config, c.id, count);
      if (belongs !== shard.index)
        problems.push({
          file,
          path: `/cases/${i}`,
          reason: `case ${c.id} (${c.config}) belongs to shard ${belongs}/${count}, not ${shard.index}/${count}`,
        });
      cases.push(c);
    }
    if (results.cases.length < shard.assigned)
      warnings.push(
        `${file}: shard ${shard.index}/${count} stopped early (--bail): ${results.cases.length} of its ${shard.assigned} cases ran`,
      );
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seenShard.has(i));
  if (missing.length > 0)
    problems.push({
      file: 'merge',
      path: '',
      reason: `missing shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')}: give every shard's results file`,
    });
  const ks = new Set(inputs.map((i) => i.results.repeats?.k ?? 1));
  if (ks.size > 1)
    problems.push({
      file: 'merge',
      path: '/repeats/k',
      reason: `the shards ran a different number of times (${inputs.map((i) => `${i.file}: --repeat ${i.results.repeats?.k ?? 1}`).join(', ')}); run every shard with the same --repeat`,
    });
  if (problems.length > 0) throw new InputError(problems);

  const order = compareCases(first.results.configs.map((c) => c.name));
  cases.sort(order);
  const startedAt = inputs.map((i) => i.results.startedAt).sort()[0]!;
  // The comparisons are recomputed over every case (a shard's own are over its part); so are the
  // --repeat figures, from the union of the shards' per-case ones (each case is in one shard).
  const { shard: _dropped, comparisons: shardComparisons, repeats: _repeats, ...head } = first.results;
  const k = [...ks][0]!;
  const place = new Map(cases.map((c, i) => [shardKey(c.config, c.id), i]));
  const repeats =
    k > 1
      ? repeatSummaryOf(
          k,
          inputs
            .flatMap((i) => i.results.repeats?.cases ?? [])
            .sort(
              (a, b) =>
                (place.get(shardKey(a.config, a.id)) ?? 0) - (place.get(shardKey(b.config, b.id)) ?? 0),
            ),
        )
      : undefined;
  const summary = summarise(cases);
  const reference = shardComparisons?.reference;
  const comparisons = compareConfigs(
    first.results.configs.map((c) => c.name),
    cases,
    summary.metrics,
    reference ? { reference } : {},
  );
  const results: ResultsFile = {
    ...head,
    startedAt,
    durationMs: Math.max(...inputs.map((i) => i.results.durationMs)),
    cases,
    summary,
    ...(comparisons ? { comparisons } : {}),
    ...(repeats ? { repeats } : {}),
  };
  return { results, warnings };
}

function describeConfigs(results: ResultsFile): string {
  return results.configs.map((c) => `${c.name} (${c.file})`).join(', ') || 'none';
}
