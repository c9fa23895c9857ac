import { DEFAULT_CONFIG } from '/work/main/harness/config.ts';
import { runScenario } from '/work/main/eval/run-scenario.ts';
import { runAdapterScenario } from '/work/main/eval/adapters/run-adapter.ts';
import { loadAdapterFile, ADAPTERS_DIR } from '/work/main/eval/adapters/load.ts';
import { loadScenarioFiles } from '/work/main/eval/suite.ts';
import path from 'node:path';
const ids = process.argv.slice(2);
const all = await loadScenarioFiles(['scenarios'], '/work/main');
const served = loadAdapterFile(path.join(ADAPTERS_DIR, 'ours-served.json'));
for (const l of all.filter((s) => ids.includes(s.scenario.id))) {
  const w = await runScenario(l, { name: 'default', config: DEFAULT_CONFIG });
  console.log(l.scenario.id, 'white', w.result.status, w.result.firstFailure, w.run?.stopReason);
  const b = await runAdapterScenario(l, { name: 'default', config: DEFAULT_CONFIG }, served);
  console.log(l.scenario.id, 'black', b.result.status, b.result.firstFailure);
}
for (const l of all.filter((s) => ids.includes(s.scenario.id))) {
  const b = await runAdapterScenario(l, { name: 'default', config: DEFAULT_CONFIG }, served);
  console.log(JSON.stringify(b.run?.ledger?.slice?.(0, 3) ?? Object.keys(b.run ?? {}), null, 1).slice(0, 3000));
  console.log(JSON.stringify(b.result.checks.map((c) => [c.name, c.status ?? c.pass, JSON.stringify(c.observed).slice(0, 200)])));
}
