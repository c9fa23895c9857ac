/**
 * `npm run league`: the fault library against ours (each shipped configuration) and each shipped
 * adapter (`adapters/*.json`), one `harness-bench run` per entrant, then the figures per tag
 * (`league/figures.ts`) written to `reports/league/league.json`, `league.md`, `league.html` and
 * `docs/league.md` between `<!-- league:start -->` and `<!-- league:end -->`.
 *
 * Options: `--per-tag N` (cases per tag, default 6: a representative subset that keeps the league
 * under ~5 minutes on 2 cores), `--all` (every case), `--out DIR` (default `reports/league`),
 * `--no-readme` (leave `docs/league.md` alone), `--only NAME` (repeatable: run only these entrants;
 * `docs/league.md` is left alone).
 * Exit 0 when every run finished (whatever the harnesses scored), 2 on bad options or a run
 * that could not start.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CaseResult, ResultsFile } from '../eval/results.ts';
import { loadScenarios } from '../eval/scenario/load.ts';
import { entrantFigures, type LeagueData, type LeagueEntrantFigures } from './league/figures.ts';
import { leagueHtml } from './league/html.ts';
import { ADAPTERS, OUR_CONFIGS, PEER_EXCLUDED_TAGS, peerRunnable, selectCases } from './league/plan.ts';
import { leagueMarkdown, readmeBlock, replaceReadmeBlock } from './league/render.ts';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin/harness-bench.js');

function fail(message: string): never {
  process.stderr.write(`league: ${message}\n`);
  process.exit(2);
}

/** Runs `harness-bench run` with `args`; returns the results file it wrote. */
function runBench(label: string, args: string[], json: string): ResultsFile {
  const started = Date.now();
  process.stderr.write(`league: ${label} …`);
  const done = spawnSync(process.execPath, [CLI, 'run', ...args, '--json', json, '--compact'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  writeFileSync(`${json.replace(/\.json$/, '')}.log`, `${done.stdout}\n${done.stderr}`);
  if (done.status !== 0 && done.status !== 1)
    fail(`${label}: harness-bench run exited ${done.status}\n${(done.stderr || done.stdout).slice(-2000)}`);
  process.stderr.write(` ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return JSON.parse(readFileSync(json, 'utf8')) as ResultsFile;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'per-tag': { type: 'string', default: '6' },
      all: { type: 'boolean', default: false },
      out: { type: 'string', default: 'reports/league' },
      'no-readme': { type: 'boolean', default: false },
      only: { type: 'string', multiple: true },
    },
  });
  const perTag = values.all ? Number.POSITIVE_INFINITY : Number(values['per-tag']);
  if (!Number.isInteger(perTag) && perTag !== Number.POSITIVE_INFINITY)
    fail('--per-tag takes a whole number');
  if (perTag < 1) fail('--per-tag takes a number of 1 or more');
  const out = resolve(ROOT, values.out);
  mkdirSync(join(out, 'runs'), { recursive: true });

  const started = Date.now();
  const loaded = await loadScenarios(['scenarios'], ROOT);
  const scenarios = loaded.scenarios.map((s) => ({
    id: s.scenario.id,
    tags: s.scenario.tags ?? [],
    peerRunnable: peerRunnable(s.scenario),
  }));
  const scripted = new Set(scenarios.filter((s) => !s.peerRunnable).map((s) => s.id));
  const plan = selectCases(scenarios, perTag);
  const library = selectCases(scenarios, Number.POSITIVE_INFINITY);
  const filters = (tags: Iterable<string>) =>
    [...tags].flatMap((tag) => (plan.get(tag) ?? []).flatMap((id) => ['-f', id]));
  const peerTags = [...plan.keys()].filter((t) => PEER_EXCLUDED_TAGS[t] === undefined);
  const wanted = (name: string) => !values.only || values.only.includes(name);

  const entrants: LeagueEntrantFigures[] = [];
  const ours = OUR_CONFIGS.filter((f) => wanted(basename(f, '.json')));
  if (ours.length > 0) {
    const file = join(out, 'runs', 'ours.json');
    const results = runBench(
      `ours (${ours.map((f) => basename(f, '.json')).join(', ')})`,
      ['-s', 'scenarios', ...ours.flatMap((f) => ['-c', f]), ...filters(plan.keys())],
      file,
    );
    for (const config of results.configs)
      entrants.push(
        entrantFigures(
          { name: config.name, kind: 'ours', file: `configs/${config.name}.json` },
          results.cases as CaseResult[],
          plan,
          {},
          config.name,
          ADAPTERS.some((a) => wanted(a.name)) ? new Set(peerTags) : undefined,
        ),
      );
  }
  for (const adapter of ADAPTERS.filter((a) => wanted(a.name))) {
    const file = join(out, 'runs', `${adapter.name}.json`);
    const results = runBench(
      adapter.name,
      ['-s', 'scenarios', '--harness', adapter.file, ...filters(peerTags)],
      file,
    );
    // The cases carry the configuration's name (default); the harness is named in `harness`.
    const named = (results as { harness?: { name?: string } }).harness?.name;
    const config = results.configs[0]?.name ?? adapter.name;
    entrants.push(
      entrantFigures(
        { name: named ?? adapter.name, kind: 'adapter', file: adapter.file },
        results.cases as CaseResult[],
        plan,
        PEER_EXCLUDED_TAGS,
        config,
      ),
    );
  }

  const cpu = cpus();
  const data: LeagueData = {
    format: 'harness-bench.league',
    version: 1,
    date: new Date().toISOString().slice(0, 10),
    machine: {
      cpu: cpu[0]?.model.trim() ?? 'unknown CPU',
      cores: cpu.length,
      memoryGb: Math.round(totalmem() / 2 ** 30),
      node: process.versions.node,
      platform: `${process.platform}-${process.arch}`,
    },
    durationMs: Date.now() - started,
    perTag: Number.isFinite(perTag) ? perTag : null,
    tags: [...plan].map(([tag, ids]) => ({
      tag,
      library: library.get(tag)?.length ?? 0,
      selected: ids.length,
      scripted: ids.filter((id) => scripted.has(id)).length,
    })),
    entrants,
  };
  writeFileSync(join(out, 'league.json'), `${JSON.stringify(data, null, 2)}\n`);
  writeFileSync(join(out, 'league.md'), leagueMarkdown(data));
  writeFileSync(join(out, 'league.html'), leagueHtml(data));
  if (!values['no-readme'] && !values.only) {
    const readme = join(ROOT, 'docs', 'league.md');
    writeFileSync(readme, replaceReadmeBlock(readFileSync(readme, 'utf8'), readmeBlock(data)));
  }
  process.stderr.write(
    `league: ${Math.round(data.durationMs / 1000)} s; wrote ${join(values.out, 'league.json')}, league.md, league.html${values['no-readme'] || values.only ? '' : ' and docs/league.md'}\n`,
  );
}

await main();
