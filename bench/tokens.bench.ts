/**
 * tinybench: token counting of long text without whitespace, chunked (`countText`, which cuts
 * runs of `LONG_RUN_CHARS` or more into slices) against the tokenizer on the whole text. The
 * whole-text encode is quadratic, so it is measured on 40 KB (a 1 MB run would take most of an
 * hour) and its 1 MB time extrapolated from the square law; the chunked count is measured on
 * 1 MB itself. Results are printed as ratios from one run, never asserted.
 *
 *   npx tsx bench/tokens.bench.ts        (also part of `npm run bench`)
 */
import { pathToFileURL } from 'node:url';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { Bench } from 'tinybench';
import { countText } from '../harness/context/tokens.ts';

const MB = 1024 * 1024;
const SMALL = 40 * 1024;
/**
 * `n` pseudo-random lowercase letters (a hash, a base64 blob without digits): no whitespace, one
 * pre-token. Each call gives new text, because gpt-tokenizer caches the pieces it has encoded
 * and a repeated string would measure the cache.
 */
let seed = 20261129;
const noSpaces = (n: number) => {
  let text = '';
  for (let i = 0; i < n; i += 1) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    text += String.fromCharCode(97 + Math.floor((seed / 2147483648) * 26));
  }
  return text;
};
/** Texts for each iteration, made before timing starts. */
const fresh = (n: number, count: number) => Array.from({ length: count }, () => noSpaces(n));
const prose = 'The harness reads the file, validates the arguments and asks before it writes. '.repeat(
  Math.ceil(MB / 80),
);

/** Task names, for the summary. */
const NAMES = {
  chunked1mb: 'countText (chunked): 1 MB without spaces',
  chunkedSmall: 'countText (chunked): 40 KB without spaces',
  wholeSmall: 'encode (whole text): 40 KB without spaces',
  prose1mb: 'countText: 1 MB of prose (no chunking applies)',
} as const;

/** Adds the token-counting tasks to `bench` (each runs at most `iterations` times on new text). */
function addTokenBenchmarks(bench: Bench, iterations = 3): void {
  const big = fresh(MB, iterations + 1);
  const small = fresh(SMALL, iterations + 1);
  const smallAgain = fresh(SMALL, iterations + 1);
  let i = 0;
  let j = 0;
  let k = 0;
  bench
    .add(NAMES.chunked1mb, () => {
      countText(big[i++ % big.length]!);
    })
    .add(NAMES.chunkedSmall, () => {
      countText(small[j++ % small.length]!);
    })
    .add(NAMES.wholeSmall, () => {
      encode(smallAgain[k++ % smallAgain.length]!);
    })
    .add(NAMES.prose1mb, () => {
      countText(prose);
    });
}

/** The median latency of a task in ms (the first, cold iteration weighs on the mean). */
const medianMs = (bench: Bench, name: string): number | undefined => {
  const result = bench.tasks.find((t) => t.name === name)?.result;
  return result && 'latency' in result ? result.latency.p50 : undefined;
};

/** The lines the summary prints: the measured ratio at 40 KB and the extrapolated one at 1 MB. */
function tokenBenchSummary(bench: Bench): string[] {
  const chunked1mb = medianMs(bench, NAMES.chunked1mb);
  const chunkedSmall = medianMs(bench, NAMES.chunkedSmall);
  const wholeSmall = medianMs(bench, NAMES.wholeSmall);
  if (chunked1mb === undefined || chunkedSmall === undefined || wholeSmall === undefined) return [];
  const whole1mb = wholeSmall * (MB / SMALL) ** 2;
  return [
    `token counting, 40 KB without spaces: chunked ${chunkedSmall.toFixed(0)} ms, whole ${wholeSmall.toFixed(0)} ms (${(wholeSmall / chunkedSmall).toFixed(0)}x)`,
    `token counting, 1 MB without spaces: chunked ${chunked1mb.toFixed(0)} ms; whole, extrapolated (quadratic) ${(whole1mb / 60_000).toFixed(0)} min (${(whole1mb / chunked1mb).toFixed(0)}x)`,
  ];
}

/** Runs the token tasks (3 iterations each, a few seconds apiece) and prints the table and the ratios. */
export async function runTokenBench(): Promise<void> {
  const bench = new Bench({ time: 0, iterations: 3, warmup: false });
  addTokenBenchmarks(bench, 3);
  await bench.run();
  console.table(bench.table());
  for (const line of tokenBenchSummary(bench)) console.log(line);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runTokenBench();
