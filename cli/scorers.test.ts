import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliIo } from './io.ts';
import { main } from './main.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'hb-cli-scorers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
};

describe('harness-bench run with scorers', () => {
  const io = (): { io: CliIo; err: () => string } => {
    let err = '';
    return {
      io: { stdout: () => {}, stderr: (t) => (err += t), cwd: dir, env: { NO_COLOR: '1' }, isTTY: false },
      err: () => err,
    };
  };

  it('an unregistered name or a missing module is bad input (exit 2), before anything runs', async () => {
    const file = write(
      'uses-unknown.json',
      JSON.stringify({
        id: 'x/unknown',
        task: 't',
        model: [{ content: 'hi' }],
        expect: { stopReason: 'final_answer', scorers: ['nope'] },
      }),
    );
    const c = io();
    expect(await main(['node', 'hb', 'run', '-s', file], c.io)).toBe(2);
    expect(c.err()).toMatch(/scorer "nope" is not registered/);
    const missing = write(
      'missing-module.json',
      JSON.stringify({
        id: 'x/missing',
        task: 't',
        scorers: { m: './not-there.ts' },
        model: [{ content: 'hi' }],
        expect: { stopReason: 'final_answer', scorers: ['m'] },
      }),
    );
    const d = io();
    expect(await main(['node', 'hb', 'run', '-s', missing], d.io)).toBe(2);
    expect(d.err()).toMatch(/not-there\.ts.*scorer module not found/);
  });
});
