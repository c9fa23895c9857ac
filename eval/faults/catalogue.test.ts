/**
 * The fault catalogue itself: ids unique and prefixed by their tag, enough faults per tag, every
 * patch applies to the repository as it is now (a stale one fails here first, with "patch does
 * not apply" and the fault's id), and every scenario of the fault library names its source.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../config-load.ts';
import { loadScenarioFiles } from '../suite.ts';
import { CATALOGUE } from './catalogue/index.ts';
import { applyFault, checkFault, findLoose, PatchDoesNotApplyError } from './patch.ts';
import { FAULT_TAGS } from './types.ts';
import { createWorkbench } from './workbench.ts';

describe('the fault catalogue', () => {
  it('runs in a workbench copy that holds every folder the CLI reads at start-up', () => {
    // A folder missing from the copy (adapters/ once) fails every fault of `npm run test:faults`.
    const bench = createWorkbench();
    try {
      const run = spawnSync(process.execPath, ['bin/harness-bench.js', '--version'], {
        cwd: bench.root,
        encoding: 'utf8',
      });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
    } finally {
      bench.dispose();
    }
  });

  it('bundles the patched copy so that bin/harness-bench.js runs the bundle, and drops it on reset', async () => {
    const bench = createWorkbench();
    try {
      const fault = CATALOGUE[0]!;
      const [patched] = bench.apply(fault);
      await bench.bundle();
      // bin/harness-bench.js runs dist/cli.mjs only while every input listed is as it was built.
      const { inputs } = JSON.parse(readFileSync(path.join(bench.root, 'dist', 'inputs.json'), 'utf8')) as {
        inputs: { file: string; size: number; mtimeMs: number }[];
      };
      expect(inputs.map((i) => i.file)).toEqual(expect.arrayContaining(['cli/main.ts', patched!.file]));
      for (const input of inputs) {
        const stat = statSync(path.join(bench.root, input.file));
        expect([input.file, stat.size, stat.mtimeMs]).toEqual([input.file, input.size, input.mtimeMs]);
      }
      bench.reset();
      expect(existsSync(path.join(bench.root, 'dist'))).toBe(false);
    } finally {
      bench.dispose();
    }
  });

  it('has unique ids prefixed by the tag, a bug sentence and at least one patch each', () => {
    const ids = CATALOGUE.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const fault of CATALOGUE) {
      expect(fault.id.startsWith(`${fault.tag}/`), fault.id).toBe(true);
      expect(fault.bug.length, fault.id).toBeGreaterThan(20);
      expect(fault.patches.length, fault.id).toBeGreaterThan(0);
    }
  });

  it('every patch applies to the repository as it is, and changes its code', () => {
    const problems: string[] = [];
    for (const fault of CATALOGUE)
      try {
        checkFault(PACKAGE_ROOT, fault);
      } catch (error) {
        problems.push((error as Error).message);
      }
    expect(problems).toEqual([]);
  });
});

describe('patches', () => {
  it('match across whitespace differences and only as a whole', () => {
    expect(findLoose('if (a &&\n    b) {', 'if (a && b) {')).toEqual([[0, 17]]);
    expect(findLoose('x = 1; x = 1;', 'x = 1;')).toHaveLength(2);
    expect(findLoose('abc', 'abd')).toEqual([]);
  });

  it('follow code that moved to another file, and say "patch does not apply" when it is gone', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'hb-patch-'));
    try {
      const write = (file: string, text: string) => {
        const full = path.join(root, file);
        mkdirSync(path.dirname(full), { recursive: true });
        writeFileSync(full, text);
      };
      write('harness/a.ts', 'export const a = 1;\n');
      write('harness/b.ts', 'export function f() {\n  return   2;\n}\n');
      const moved = applyFault(root, {
        id: 'loop/x',
        tag: 'loop',
        bug: 'a bug long enough to describe',
        patches: [{ file: 'harness/a.ts', search: 'return 2;', replace: 'return 3;' }],
      });
      expect(moved).toEqual([{ file: 'harness/b.ts', movedFrom: 'harness/a.ts' }]);
      expect(readFileSync(path.join(root, 'harness/b.ts'), 'utf8')).toContain('return 3;');
      expect(() =>
        applyFault(root, {
          id: 'loop/y',
          tag: 'loop',
          bug: 'a bug long enough to describe',
          patches: [{ file: 'harness/a.ts', search: 'return 9;', replace: '' }],
        }),
      ).toThrow(PatchDoesNotApplyError);
      expect(() =>
        applyFault(root, {
          id: 'loop/y',
          tag: 'loop',
          bug: 'a bug long enough to describe',
          patches: [{ file: 'harness/a.ts', search: 'return 9;', replace: '' }],
        }),
      ).toThrow(/patch does not apply: fault loop\/y, harness\/a.ts/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the fault library', () => {
  it('every scenario names its public source (owner/repo#number) or says it is ours', async () => {
    const scenarios = await loadScenarioFiles(['scenarios'], PACKAGE_ROOT);
    const bad = scenarios
      .filter(
        ({ scenario }) => !/^(ours( \(.+\))?|[\w.-]+\/[\w.-]+#\d+|AgentDojo .+)$/.test(scenario.source ?? ''),
      )
      .map(({ file, scenario }) => `${file}: ${JSON.stringify(scenario.source)}`);
    expect(bad).toEqual([]);
  });

  it('has a catalogue for every tag', () => {
    for (const tag of FAULT_TAGS)
      expect(
        CATALOGUE.some((f) => f.tag === tag),
        tag,
      ).toBe(true);
  });
});
