/**
 * `harness-bench init [--force]`: writes `harness-bench.config.yaml` and an example scenario
 * (`scenarios/example-read-then-answer.yaml`) into the working folder, so that `harness-bench
 * run` there runs the project's own scenarios. Refuses (exit 2, nothing written) when either
 * file exists, unless `--force`.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../eval/errors.ts';
import { PROJECT_CONFIG_NAMES } from '../eval/project-config.ts';
import type { CliIo } from './io.ts';
import { checkOutputPaths } from './output-paths.ts';

/** The project configuration `init` writes. */
export const INIT_CONFIG = `# harness-bench project configuration (written by \`harness-bench init\`).
# \`harness-bench run\` in this folder or below uses it; paths are relative to this file.

# Scenario files, folders or globs.
scenarios:
  - scenarios/

# Cassettes to replay (files, folders or globs), e.g. recorded with \`harness-bench record\`.
# recordings:
#   - recordings/

# Harness configurations by name: a JSON file of your own, or a configuration the package ships
# (default, strict, permissive). \`run\` runs every one of them; \`run -c NAME\` picks one.
configurations:
  default: default

# Where results.json, report.md and junit.xml are written.
out: reports/harness-bench

# Metric names (passRate, tokensPerCase, … or a dotted path of summary.metrics): scorers are
# checked but not read by any command yet; tolerances say how far a metric may worsen before
# \`--baseline\` calls it a regression (in the metric's unit; -c files and --tolerance win).
# scorers: [passRate, attackSuccessRate, tokensPerCase]
# tolerances:
#   tokensPerCase: 100
`;

/** The example scenario `init` writes: a read, then an answer, with what must hold afterwards. */
export const INIT_SCENARIO = `# An example scenario: a task, a workspace, a scripted model (the model frozen), and what must be
# true afterwards. Schema: node_modules/harness-bench/scenarios/schema/scenario.schema.json.
id: example/read-then-answer
title: The harness reads the file the model asks for and stops on the final answer
tags: [example]
task: What does notes.txt say?
tools: [read_file]
workspace:
  files:
    notes.txt: "buy milk\\n"
model:
  - tool_calls:
      - { id: call_1, name: read_file, arguments: '{"path": "notes.txt"}' }
  - content: It says to buy milk.
expect:
  stopReason: final_answer
  executed: [call_1]
  results:
    call_1: { ok: true, includes: [buy milk] }
`;

/** The example scenario's path, relative to the project folder. */
export const INIT_SCENARIO_FILE = path.join('scenarios', 'example-read-then-answer.yaml');

/** Runs `init`; resolves with 0. @throws InputError (exit 2) when a file exists and `--force` is absent. */
export async function initCommand(flags: { force?: boolean }, io: CliIo): Promise<number> {
  const config = path.join(io.cwd, PROJECT_CONFIG_NAMES[0]!);
  const scenario = path.join(io.cwd, INIT_SCENARIO_FILE);
  const present = [
    config,
    scenario,
    ...PROJECT_CONFIG_NAMES.slice(1).map((n) => path.join(io.cwd, n)),
  ].filter((f) => existsSync(f));
  if (present.length > 0 && !flags.force)
    throw new InputError(
      present.map((file) => ({
        file: path.relative(io.cwd, file),
        path: '',
        reason: 'exists; nothing was written (pass --force to overwrite)',
      })),
    );
  checkOutputPaths(
    [
      { flag: 'init', value: config, kind: 'file' },
      { flag: 'init', value: scenario, kind: 'file' },
    ],
    io.cwd,
  );
  mkdirSync(path.dirname(scenario), { recursive: true });
  writeFileSync(config, INIT_CONFIG);
  writeFileSync(scenario, INIT_SCENARIO);
  // The approved-behaviour gate is on where approved/ exists (docs/approved-behaviour.md).
  mkdirSync(path.join(io.cwd, 'approved'), { recursive: true });
  io.stdout(
    `wrote ${path.relative(io.cwd, config)} and ${INIT_SCENARIO_FILE}, and made approved/\n` +
      'next: npx harness-bench run        (runs the scenarios of this project)\n' +
      '      npx harness-bench approve    (approves what they do; run then fails on any change)\n' +
      '      npx harness-bench validate scenarios/\n',
  );
  return 0;
}
