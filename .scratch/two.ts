import { runAdapterScenario } from '/work/main/eval/adapters/run-adapter.ts';
import { loadAdapterFile, ADAPTERS_DIR } from '/work/main/eval/adapters/load.ts';
import { loadConfig } from '/work/main/eval/config-load.ts';
import { loadScenarioFiles } from '/work/main/eval/suite.ts';
import path from 'node:path';
const ids = process.argv.slice(2);
const all = await loadScenarioFiles(['scenarios'], '/work/main');
const served = loadAdapterFile(path.join(ADAPTERS_DIR, 'ours-served.json'));
for (const l of all.filter((s) => ids.includes(s.scenario.id))) {
  const b = await runAdapterScenario(l, loadConfig(), served);
  console.log(l.scenario.id, b.result.status, b.result.firstFailure);
}
