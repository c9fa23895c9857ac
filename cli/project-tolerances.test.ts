/**
 * The project configuration's `tolerances` and `scorers` through the CLI: unknown metric names
 * are exit 2 in `validate` and `run` (file, path, did-you-mean; nothing runs, nothing is
 * written), and the tolerances gate `run --baseline`, under a configuration file's and the
 * flag's.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultsFile } from '../eval/results.ts';
import { cli, put, scenario, tempDir } from './cli.test-helpers.ts';

/** A project of one scenario with `extra` lines in its configuration. */
function project(extra: string): string {
  const dir = tempDir('hb-project-tol-');
  put(dir, {
    'harness-bench.config.yaml': `scenarios: [s/]\n${extra}\n`,
    's/read-a.json': scenario('read/a'),
  });
  return dir;
}

describe('project configuration tolerances and scorers', () => {
  it('an unknown tolerance or scorer name is exit 2 in validate and run, before any case runs', async () => {
    const dir = project('scorers: [passRate, nosuch]\ntolerances: { tokens: 100 }');
    const expected = [
      'harness-bench.config.yaml: /tolerances/tokens: no metric is named "tokens" (did you mean "tokensPerCase"?)',
      'harness-bench.config.yaml: /scorers/1: no metric is named "nosuch"',
    ];
    const validated = await cli(dir, ['validate', 'harness-bench.config.yaml']);
    expect(validated.code).toBe(2);
    for (const line of expected) expect(validated.err).toContain(line);
    const ran = await cli(dir, ['run', '--out', 'out']);
    expect(ran.code).toBe(2);
    for (const line of expected) expect(ran.err).toContain(line);
    expect(ran.err).not.toMatch(/\[1\/1\]/);
    expect(existsSync(path.join(dir, 'out'))).toBe(false);
  });

  it('gates run --baseline; a configuration file and --tolerance win over them', async () => {
    const dir = project('tolerances: { turnsPerCase: 0 }');
    expect((await cli(dir, ['run', '--json', 'base.json'])).code).toBe(0);
    // A baseline that took no turns: every turn now is a worsening of turnsPerCase.
    const base = JSON.parse(readFileSync(path.join(dir, 'base.json'), 'utf8')) as ResultsFile;
    for (const c of base.cases) c.usage.turns = 0;
    writeFileSync(path.join(dir, 'base.json'), JSON.stringify(base));

    const gated = await cli(dir, ['run', '--baseline', 'base.json']);
    expect(gated.out).toMatch(
      /REGRESSION turnsPerCase × default: baseline 0, now \d+ \(tolerance 0, lower is better\)/,
    );
    expect(gated.code).toBe(1);

    const flag = await cli(dir, ['run', '--baseline', 'base.json', '--tolerance', 'turnsPerCase=100']);
    expect(flag.out).toContain('baseline gate passed: nothing regressed');
    expect(flag.code).toBe(0);

    put(dir, { 'loose.json': { baseline: { tolerances: { turnsPerCase: 100 } } } });
    const file = await cli(dir, ['run', '-c', 'default=loose.json', '--baseline', 'base.json']);
    expect(file.out).toContain('baseline gate passed: nothing regressed');
    expect(file.code).toBe(0);
  });
});
