/**
 * Two runs of the bundled suite (every scenario and recording, the main job) write the same
 * `results.json`, `report.md`, `junit.xml`, `report.html` and every case sidecar (`cases/`)
 * byte for byte, apart from `startedAt`, fields whose names end in `Ms`, and JUnit's `time` attributes (docs/results-format.md). Nothing of where
 * a run put its temp folders may reach a file: the harness shows the model `$WS`, `$OUTSIDE` and
 * `$TMPDIR`, so the text, and the token counts of that text, are the same every time.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './main.ts';
import { PACKAGE_ROOT } from '../eval/config-load.ts';

/** The JSON text without `startedAt` and `*Ms` fields, at any depth. */
function withoutTimes(text: string): string {
  const strip = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(strip)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .filter(([key]) => key !== 'startedAt' && !key.endsWith('Ms'))
              .map(([key, v]) => [key, strip(v)]),
          )
        : value;
  return `${JSON.stringify(strip(JSON.parse(text)), null, 2)}\n`;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function runOnce(): Promise<Record<'results' | 'report' | 'junit' | 'html' | 'cases', string>> {
  const out = mkdtempSync(path.join(tmpdir(), 'hb-two-runs-'));
  dirs.push(out);
  const io = {
    stdout: () => undefined,
    stderr: () => undefined,
    cwd: PACKAGE_ROOT,
    env: { NO_COLOR: '1', ...(process.env.CI ? { CI: process.env.CI } : {}) },
    isTTY: false,
  };
  const code = await main(['node', 'harness-bench', 'run', '-o', out], io);
  expect(code).toBe(0);
  const read = (name: string) => readFileSync(path.join(out, name), 'utf8');
  return {
    results: withoutTimes(read('results.json')),
    report: read('report.md'),
    junit: read('junit.xml').replace(/ time="[0-9.]+"/g, ''),
    html: read('report.html'),
    // Every case sidecar, by path: the requests, responses, ledger and events of each case.
    cases: (readdirSync(path.join(out, 'cases'), { recursive: true }) as string[])
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => `== ${f}\n${read(path.join('cases', f))}`)
      .join(''),
  };
}

describe('two runs of the bundled suite', () => {
  it('write byte-identical results.json, report.md, junit.xml, report.html and case sidecars apart from times', async () => {
    const first = await runOnce();
    const second = await runOnce();
    const a = JSON.parse(first.results) as { cases: { id: string; config: string }[] };
    const b = JSON.parse(second.results) as { cases: unknown[] };
    const differing = a.cases
      .filter((c, i) => JSON.stringify(c) !== JSON.stringify(b.cases[i]))
      .map((c) => `${c.id} (${c.config})`);
    expect(differing).toEqual([]);
    expect(second.results).toBe(first.results);
    expect(second.report).toBe(first.report);
    expect(second.junit).toBe(first.junit);
    expect(second.html).toBe(first.html);
    expect(first.cases.match(/^== /gm)).toHaveLength(a.cases.length);
    const sidecars = (text: string) => text.split(/^== /m);
    expect(
      sidecars(second.cases)
        .filter((f, i) => f !== sidecars(first.cases)[i])
        .map((f) => f.split('\n')[0]),
    ).toEqual([]);
    for (const text of Object.values(first))
      expect(text).not.toMatch(/hb-(ws|out|replay|notes)-[A-Za-z0-9]{6}/);
  }, 120_000);

  it('the time filter removes only startedAt and *Ms fields', () => {
    expect(withoutTimes('{"startedAt":"x","durationMs":3,"a":{"wallMs":1,"n":2},"b":[{"costUsd":1}]}')).toBe(
      `${JSON.stringify({ a: { n: 2 }, b: [{ costUsd: 1 }] }, null, 2)}\n`,
    );
  });
});
