import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../harness/config.ts';
import { runScenario } from '../run-scenario.ts';
import type { LoadedScenario, Scenario } from '../scenario/types.ts';
import { scorerChecks } from './scorers.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'hb-scorers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
};

write(
  'answer-length.mjs',
  `export default function (input) {
     const n = (input.run.finalAnswer ?? '').length;
     return { name: 'answer-length', pass: n <= 20, expected: '<= 20', observed: n, reason: \`the answer is \${n} characters (\${input.case.config}, \${input.claims.length} claims)\` };
   }`,
);
write('throws.mjs', 'export function score() { throw new Error("scorer bug"); }');
write('garbage.mjs', 'export default () => 42;');
write('no-function.mjs', 'export const x = 1;');

const scenario = (scorers: Record<string, string>, names: string[]): LoadedScenario => {
  const s: Scenario = {
    id: 'scorers/case',
    task: 'Say hi.',
    model: [{ content: 'All done, hi there!' }],
    scorers,
    expect: { stopReason: 'final_answer', scorers: names },
  };
  return { file: path.join(dir, 'case.json'), absolutePath: path.join(dir, 'case.json'), scenario: s };
};
const base = { name: 'default', config: DEFAULT_CONFIG };

describe('custom scorers', () => {
  it('a scenario-registered module is called with the run; its check is named after it', async () => {
    const { result } = await runScenario(scenario({ len: './answer-length.mjs' }, ['len']), base);
    const check = result.checks.find((c) => c.name.startsWith('scorers.'));
    expect(check).toEqual({
      name: 'scorers.len.answer-length',
      pass: true,
      expected: '<= 20',
      observed: 19,
      reason: 'the answer is 19 characters (default, 1 claims)',
    });
  });

  it('a configuration-registered module serves scenarios that do not register it', async () => {
    const { result } = await runScenario(scenario({}, ['len']), {
      ...base,
      bench: { scorers: { len: path.join(dir, 'answer-length.mjs') } },
    });
    expect(result.status).toBe('pass');
  });

  it('a scorer that throws, returns no check, or is missing makes the case an error that names it', async () => {
    const thrown = (await runScenario(scenario({ t: './throws.mjs' }, ['t']), base)).result;
    expect([thrown.status, thrown.error?.message]).toEqual([
      'error',
      expect.stringMatching(/^scorer "t" \(.*throws\.mjs\) threw: scorer bug$/),
    ]);
    const garbage = (await runScenario(scenario({ g: './garbage.mjs' }, ['g']), base)).result;
    expect(garbage.error?.message).toMatch(/returned 42 at 0, not a check with a boolean "pass"/);
    const none = (await runScenario(scenario({ n: './no-function.mjs' }, ['n']), base)).result;
    expect(none.error?.message).toMatch(/exports its function as default or as "score"/);
  });

  it('scorerChecks fills a missing reason and numbers unnamed checks', () => {
    expect(scorerChecks('s', 'f', [{ pass: true }, { pass: false, reason: 'no' }])).toEqual([
      {
        name: 'scorers.s.0',
        pass: true,
        expected: undefined,
        observed: undefined,
        reason: 'scorer s says pass (it gave no reason)',
      },
      { name: 'scorers.s.1', pass: false, expected: undefined, observed: undefined, reason: 'no' },
    ]);
  });
});
