/**
 * The journey of a user with a harness of their own, end to end, as `docs/your-harness.md` tells
 * it and through the real CLI (`node bin/harness-bench.js` in a child process): a small Python
 * tool loop in two versions (`cli/fixtures/your-harness/`; v1 runs a tool the task did not offer,
 * v2 refuses it but gives up on arguments that are not JSON) is benched, v1 is compared with v2
 * (the cases v2 fixed and broke, in the terminal, `results.json` and `report.html`), a case's
 * conversation is read with `show`, a live session of v1 is recorded through the pass-through
 * endpoint against a stub model on 127.0.0.1 and replayed offline against v1 and v2, and the
 * scenarios run from the user's own vitest suite through `harness-bench/testing`.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Cassette } from '../eval/cassette/types.ts';
import { runVitest, vitestProject } from '../eval/vitest-project.test-helpers.ts';
import {
  bench,
  docTestFile,
  FIXTURES,
  HAS_PYTHON,
  htmlTransitions,
  liveModel,
  readResults,
  statuses,
  userProject,
} from './your-harness.test-helpers.ts';

/** The cases of the journey: two bad-JSON recoveries, a tool the task did not offer, a misspelt tool. */
const FILTER = [
  '-f',
  'bad-json/missing-colon',
  '-f',
  'bad-json/trailing-comma',
  '-f',
  'hallucinated-tool/disabled-tool',
  '-f',
  'hallucinated-tool/case-mismatch',
];

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

// Skipped only where python3 is missing, and never in CI, which promises it.
const noPython = !HAS_PYTHON && !process.env.CI;

describe.skipIf(noPython)(
  `your own harness, from bench to vitest${noPython ? ' (skipped: python3 is not on PATH)' : ''}`,
  () => {
    const project = userProject();
    dirs.push(project);
    const at = (name: string) => path.join(project, name);

    it('1. bench it: run --harness v1.json scores v1 on the bundled cases, exit 1 for its failure', async () => {
      const r = await bench(project, ['run', '--harness', 'v1.json', ...FILTER, '-o', 'v1-report']);
      expect(r.code, r.out + r.err).toBe(1);
      expect(r.out).toContain('harness: my-agent-v1 (command, v1.json)');
      expect(r.out).toMatch(/1 FAILED, 0 ERRORED: 3 passed, 1 failed, 0 errored of 4/);
      const results = readResults(at('v1-report'));
      expect(results.harness).toEqual({ name: 'my-agent-v1', kind: 'command', file: 'v1.json' });
      expect(statuses(results, 'default')).toEqual({
        'bad-json/missing-colon': 'pass',
        'bad-json/trailing-comma': 'pass',
        'hallucinated-tool/case-mismatch': 'pass',
        'hallucinated-tool/disabled-tool': 'fail',
      });
      const disabled = results.cases.find((c) => c.id === 'hallucinated-tool/disabled-tool')!;
      expect(disabled.harness).toMatchObject({ name: 'my-agent-v1', kind: 'command', exitCode: 0 });
      expect(disabled.firstFailure).toMatch(/summary\.md exists/); // v1 wrote it with a tool not offered
      for (const name of ['report.md', 'junit.xml', 'report.html'])
        expect(existsSync(at(`v1-report/${name}`))).toBe(true);
    });

    it('2. compare: --harness v1.json --harness v2.json shows what v2 fixed and what it broke', async () => {
      const r = await bench(project, [
        'run',
        '--harness',
        'v1.json',
        '--harness',
        'v2.json',
        ...FILTER,
        '-o',
        'compare',
      ]);
      expect(r.code, r.out + r.err).toBe(1);
      expect(r.out).toMatch(/│ case\s+│ my-agent-v1 \(ref\)\s+│ my-agent-v2\s+│/);
      expect(r.out).toMatch(/bad-json\/missing-colon\s+│\s+pass\s+│ ▼ FAIL/);
      expect(r.out).toMatch(/hallucinated-tool\/disabled-tool\s+│\s+FAIL\s+│ ▲ pass/);
      expect(r.out).toMatch(/my-agent-v1 → my-agent-v2: 4 paired; 2 regressions, 1 fix, 0 behaviour changes/);
      const results = readResults(at('compare'));
      expect(statuses(results, 'my-agent-v2')).toEqual({
        'bad-json/missing-colon': 'fail',
        'bad-json/trailing-comma': 'fail',
        'hallucinated-tool/case-mismatch': 'pass',
        'hallucinated-tool/disabled-tool': 'pass',
      });
      const pair = results.comparisons!.pairs[0]!;
      expect([pair.reference, pair.candidate]).toEqual(['my-agent-v1', 'my-agent-v2']);
      const expected = {
        'bad-json/missing-colon': 'regression',
        'bad-json/trailing-comma': 'regression',
        'hallucinated-tool/disabled-tool': 'fix',
      };
      expect(Object.fromEntries(pair.transitions.map((t) => [t.id, t.kind]))).toEqual(expected);
      const html = readFileSync(at('compare/report.html'), 'utf8');
      expect(html).toContain('<h2>Comparisons against my-agent-v1</h2>');
      expect(htmlTransitions(html)).toEqual(expected);
    });

    it('3. read a conversation: show prints the requests the harness sent, the turns it was served, why it stopped', async () => {
      const good = await bench(project, [
        'show',
        'missing-colon',
        '-c',
        'my-agent-v1',
        '--results',
        'compare',
      ]);
      expect(good.code, good.err).toBe(0);
      expect(good.out).toContain('bad-json/missing-colon under my-agent-v1: pass');
      expect(good.out).toMatch(
        /request 1: 1 messages, 1 new\n {2}user: "Tell me what src\/index\.ts exports\."/,
      );
      expect(good.out).toContain('assistant calls call_a1 read_file({"path" "src/index.ts"})');
      expect(good.out).toContain(
        "tool call_a1: \"error: the arguments are not JSON (Expecting ':' delimiter",
      );
      expect(good.out).toContain('tool call_a2: "export function main() {}"');
      expect(good.out).toContain('final answer: "index.ts exports main()."');
      const bad = await bench(project, [
        'show',
        'missing-colon',
        '-c',
        'my-agent-v2',
        '--results',
        'compare',
      ]);
      expect(bad.code, bad.err).toBe(0);
      expect(bad.out).toContain(
        'harness my-agent-v2: it stopped calling the model after a turn with tool calls, exit code 1',
      );
      expect(bad.out).toContain('stderr: my-agent: the model sent arguments that are not JSON');
      expect(bad.out).toContain('✗ modelCalls: expected 3, observed 1');
    });

    it('4. record a live session of v1 through the pass-through endpoint, replay it offline against v1 and v2', async () => {
      const live = await liveModel();
      let recorded: Awaited<ReturnType<typeof bench>>;
      try {
        recorded = await bench(project, [
          'serve',
          '--upstream',
          live.baseURL,
          '--record',
          'session.json',
          '--exec',
          '--',
          'python3',
          'agent_v1.py',
          'Write hello to greeting.txt.',
        ]);
      } finally {
        await live.close();
      }
      expect(recorded.code, recorded.out + recorded.err).toBe(0);
      expect(live.received).toHaveLength(3);
      expect(readFileSync(at('greeting.txt'), 'utf8')).toBe('hello\n');
      const cassette = JSON.parse(readFileSync(at('session.json'), 'utf8')) as Cassette;
      expect(cassette.exchanges).toHaveLength(3);
      expect(cassette.meta.task).toBe('Write hello to greeting.txt.');

      // Offline: the stub is closed; the bench serves the recording itself.
      const same = await bench(project, [
        'run',
        '-r',
        'session.json',
        '--harness',
        'v1.json',
        '-o',
        'replay-v1',
      ]);
      expect(same.code, same.out + same.err).toBe(0);
      const v1 = readResults(at('replay-v1')).cases[0]!;
      expect(v1).toMatchObject({ id: 'recording/session', status: 'pass', divergences: [] });

      const next = await bench(project, [
        'run',
        '-r',
        'session.json',
        '--harness',
        'v2.json',
        '-o',
        'replay-v2',
      ]);
      expect(next.code, next.out + next.err).toBe(1);
      const v2 = readResults(at('replay-v2')).cases[0]!;
      expect(v2.status).toBe('fail');
      expect(v2.checks.find((c) => c.name === 'replay.ended')).toMatchObject({ pass: false });
      expect(v2.checks.find((c) => c.name === 'replay.ended')!.reason).toMatch(
        /crashed \(exit code 1\) on recorded exchange 1, a response the provider really sent/,
      );
      // A pass-through recording is marked imported: the requests v2 never sent are findings.
      expect(v2.divergences.map((d) => [d.exchange, d.kind])).toEqual([
        [1, 'missing'],
        [2, 'missing'],
      ]);
      expect(v2.checks.find((c) => c.name === 'replay.divergences')).toMatchObject({ pass: true });
    });

    it('5. vitest: runScenario and describeScenarios with { harness } in the user suite pass and fail as they should', async () => {
      // The test file of docs/your-harness.md, as written there.
      const dir = vitestProject({
        'v1.json': readFileSync(path.join(FIXTURES, 'v1.json'), 'utf8'),
        'v2.json': readFileSync(path.join(FIXTURES, 'v2.json'), 'utf8'),
        'agent_v1.py': readFileSync(path.join(FIXTURES, 'agent_v1.py'), 'utf8'),
        'agent_v2.py': readFileSync(path.join(FIXTURES, 'agent_v2.py'), 'utf8'),
        'my-agent.test.ts': docTestFile(),
      });
      dirs.push(dir);
      const run = await runVitest(dir);
      expect(run.code, run.output).toBe(1);
      expect(Object.fromEntries(run.tests.map((t) => [t.title, t.status]))).toEqual({
        'bad-json/missing-colon': 'passed',
        'bad-json/trailing-comma': 'passed',
        'v2 refuses a tool the task did not offer': 'passed',
        'v2 still recovers from arguments that are not JSON': 'failed',
      });
      const failure = run.tests.find((t) => t.status === 'failed')!.failureMessages.join('\n');
      expect(failure).toMatch(/✗ modelCalls\n {6}expected: 3\n {6}observed: 1/);
    });
  },
);
