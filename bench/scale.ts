/**
 * The scale benchmark: a synthetic suite of N cheap scripted scenarios (a read, a bad-JSON
 * retry, a hallucinated tool, a denied write, in turn), generated in a temp folder and run by
 * the real CLI (`harness-bench run -s DIR --out DIR`) in a fresh process per size, as a user
 * would. It reports throughput (cases per second of the run) and the process's peak RSS, and
 * the ratio of peak RSS at the largest size to the smallest: memory is flat when it stays at
 * most 1.5× from 1,000 to 10,000 cases. Timings and sizes are reported, never
 * asserted in tests; tinybench times each size (one iteration: a run is minutes, not µs).
 *
 *   npx tsx bench/scale.ts [sizes=1000,10000] [concurrency=2]
 *
 * Writes `bench/results/scale.json`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Scenario `i` of the synthetic suite: one of four cheap kinds, each passing. */
export function syntheticScenario(i: number): Record<string, unknown> {
  const id = `scale/${['read', 'bad-json', 'hallucinated', 'denied-write'][i % 4]}-${String(i).padStart(5, '0')}`;
  const files = { 'src/index.ts': `export const value${i} = ${i};\n` };
  const read = { id: 'call_r', name: 'read_file', arguments: '{"path":"src/index.ts"}' };
  const base = { id, task: `What does src/index.ts export? (${i})`, tools: ['read_file', 'write_file'] };
  const answer = { content: `It exports value${i}.` };
  switch (i % 4) {
    case 0:
      return {
        ...base,
        workspace: { files },
        model: [{ tool_calls: [read] }, answer],
        expect: { stopReason: 'final_answer', executed: ['call_r'], results: { call_r: { ok: true } } },
      };
    case 1:
      return {
        ...base,
        workspace: { files },
        model: [
          { tool_calls: [{ ...read, id: 'call_b', arguments: '{"path" "src/index.ts"}' }] },
          { tool_calls: [read] },
          answer,
        ],
        expect: {
          stopReason: 'final_answer',
          executed: ['call_r'],
          results: { call_b: { ok: false, errorType: 'invalid_json' } },
        },
      };
    case 2:
      return {
        ...base,
        workspace: { files },
        model: [
          { tool_calls: [{ id: 'call_h', name: 'grep_files', arguments: '{}' }] },
          { tool_calls: [read] },
          answer,
        ],
        expect: { stopReason: 'final_answer', results: { call_h: { ok: false, errorType: 'unknown_tool' } } },
      };
    default:
      return {
        ...base,
        config: { permissions: { mode: 'headless' } },
        workspace: { files },
        model: [
          {
            tool_calls: [
              { id: 'call_w', name: 'write_file', arguments: '{"path":"src/x.ts","content":"x"}' },
            ],
          },
          answer,
        ],
        expect: {
          stopReason: 'final_answer',
          notExecuted: ['call_w'],
          permissions: { call_w: 'ask:denied' },
        },
      };
  }
}

/** Writes N scenarios under `dir` (100 per folder). */
export function writeSuite(dir: string, n: number): void {
  for (let i = 0; i < n; i += 1) {
    const folder = path.join(dir, `part-${String(Math.floor(i / 100)).padStart(3, '0')}`);
    if (i % 100 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, `case-${i}.json`), JSON.stringify(syntheticScenario(i)));
  }
}

/** What one size measured. */
export interface ScaleRow {
  cases: number;
  passed: number;
  /** Cases per second of the suite run (results' `durationMs`). */
  casesPerSecond: number;
  /** Wall time of the whole command (load, run, reports), ms. */
  wallMs: number;
  /** Peak resident set size of the process, MB (process.resourceUsage().maxRSS). */
  peakRssMb: number;
}

// Written by the child at exit: its peak RSS in kB.
const RSS_HOOK =
  "data:text/javascript,import{writeFileSync}from'node:fs';process.on('exit',()=>writeFileSync(process.env.HB_RSS_FILE,String(process.resourceUsage().maxRSS)))";

/** Runs the CLI on a fresh suite of `n` cases in a child process. */
export function measure(n: number, concurrency: number): ScaleRow {
  const dir = mkdtempSync(path.join(tmpdir(), 'hb-scale-'));
  try {
    writeSuite(path.join(dir, 'suite'), n);
    const rssFile = path.join(dir, 'rss');
    const started = performance.now();
    try {
      execFileSync(
        process.execPath,
        [
          '--import',
          RSS_HOOK,
          path.join(ROOT, 'bin/harness-bench.js'),
          'run',
          '-s',
          path.join(dir, 'suite'),
          '--out',
          path.join(dir, 'out'),
          '--concurrency',
          String(concurrency),
        ],
        {
          cwd: dir,
          env: { ...process.env, HB_RSS_FILE: rssFile, NO_COLOR: '1' },
          stdio: ['ignore', 'ignore', 'pipe'],
          maxBuffer: 1 << 28,
        },
      );
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status !== 1) throw error;
    }
    const wallMs = performance.now() - started;
    const results = JSON.parse(readFileSync(path.join(dir, 'out', 'results.json'), 'utf8')) as {
      durationMs: number;
      summary: { total: number; passed: number };
    };
    return {
      cases: results.summary.total,
      passed: results.summary.passed,
      casesPerSecond: Math.round((results.summary.total / results.durationMs) * 1000),
      wallMs: Math.round(wallMs),
      peakRssMb: Math.round(Number(readFileSync(rssFile, 'utf8')) / 1024),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const sizes = (process.argv[2] ?? '1000,10000').split(',').map(Number);
  const concurrency = Number(process.argv[3] ?? 2);
  const rows: (ScaleRow & { requested: number })[] = [];
  const bench = new Bench({ iterations: 1, time: 0, warmup: false });
  // One measurement per size (a run is minutes; tinybench may call a task more than once).
  for (const n of sizes)
    bench.add(`${n} cases`, () => {
      if (!rows.some((r) => r.requested === n)) rows.push({ requested: n, ...measure(n, concurrency) });
    });
  await bench.run();
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  console.log('| cases | passed | cases/s | wall s | peak RSS MB |');
  console.log('|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.cases} | ${r.passed} | ${r.casesPerSecond} | ${(r.wallMs / 1000).toFixed(1)} | ${r.peakRssMb} |`,
    );
  const ratio = last.peakRssMb / first.peakRssMb;
  console.log(`peak RSS ${last.cases} / ${first.cases} cases: ${ratio.toFixed(2)}× (flat: ≤ 1.5×)`);
  mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(
    path.join(ROOT, 'bench/results/scale.json'),
    `${JSON.stringify({ machine: machine(), concurrency, rows: rows.map(({ requested: _, ...r }) => r), peakRssRatio: Number(ratio.toFixed(2)) }, null, 2)}\n`,
  );
}

function machine() {
  return {
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
  };
}
