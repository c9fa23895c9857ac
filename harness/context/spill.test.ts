import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig, type PartialConfig } from '../config.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { LocalSandbox } from '../sandbox/local.ts';
import { outputTokenCap, shapeOutput, spillFileName } from './spill.ts';
import { countText } from './tokens.ts';

let ws: string;
beforeEach(() => {
  ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-spill-')));
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

const config = (partial: PartialConfig = {}) => mergeConfig(DEFAULT_CONFIG, partial);
// Handed case D03 (anomalyco/opencode#1829): 20,000 PASS lines, then the failure in the tail.
const npmTest = `${Array.from({ length: 20_000 }, (_, i) => `PASS src/mod${i + 1}.test.ts`).join('\n')}\nFAIL src/cache.test.ts > evicts oldest entry\nTests: 1 failed, 19999 passed\n`;

describe('shapeOutput: cap and spill', () => {
  it('D03: keeps head and tail within the window-relative cap, says what was cut and where the full output is', async () => {
    const cfg = config({ context: { windowTokens: 32_000, toolOutputMaxShare: 0.125 } });
    const shaped = await shapeOutput(npmTest, {
      config: cfg,
      callId: 'call_big1',
      spill: {
        sandbox: new LocalSandbox({ allowExec: false }),
        workspace: ws,
        folder: '.harness-bench/spill/run_0001',
      },
    });
    expect(outputTokenCap(cfg)).toBe(4000);
    expect(countText(shaped.text)).toBeLessThanOrEqual(4000);
    expect(shaped.keptTokens).toBeLessThanOrEqual(4000);
    expect(shaped.text).toContain('output truncated');
    expect(shaped.text).toMatch(/\(20,002 lines, [\d,]+ bytes, ~[\d,]+ tokens in all\)/);
    expect(shaped.text).toContain(
      'full output saved in .harness-bench/spill/run_0001/call_big1.txt: page through it with read_file',
    );
    expect(shaped.text).toContain('FAIL src/cache.test.ts > evicts oldest entry');
    expect(shaped.text.startsWith('PASS src/mod1.test.ts\n')).toBe(true);
    expect(shaped.spillFile).toBe('.harness-bench/spill/run_0001/call_big1.txt');
    expect(readFileSync(path.join(ws, shaped.spillFile!), 'utf8')).toBe(npmTest);
  });

  it('an output within both caps is returned as it is', async () => {
    const shaped = await shapeOutput('short output', { config: config(), callId: 'c' });
    expect(shaped).toMatchObject({ text: 'short output', cut: 0 });
  });

  it('the character cap counts the marker; without the spill layer the marker says how to narrow the request', async () => {
    const shaped = await shapeOutput('x'.repeat(5000), {
      config: config({ context: { toolOutputMaxChars: 600, layers: { spill: false } } }),
      callId: 'c',
      spill: { sandbox: new LocalSandbox({ allowExec: false }), workspace: ws, folder: 'sp' },
    });
    expect(shaped.text.length).toBeLessThanOrEqual(620);
    expect(shaped.text).toContain('characters elided of 5000');
    expect(shaped.text).toContain('narrow the request');
    expect(shaped.spillFile).toBeUndefined();
  });

  it('dense text is cut by tokens, not only characters', async () => {
    const dense = Array.from({ length: 3000 }, (_, i) => `${(i * 7919) % 10007}`).join(',');
    const cfg = config({ context: { windowTokens: 10_000, toolOutputMaxShare: 0.05 } });
    expect(dense.length).toBeLessThan(cfg.context.toolOutputMaxChars);
    const shaped = await shapeOutput(dense, { config: cfg, callId: 'c' });
    expect(shaped.cut).toBeGreaterThan(0);
    expect(countText(shaped.text)).toBeLessThanOrEqual(500);
  });

  it('a spill write that fails falls back to the plain cap and says so', async () => {
    const broken = {
      ...new LocalSandbox({ allowExec: false }),
      writeFile: async () => Promise.reject(new Error('read-only file system')),
    } as unknown as Sandbox;
    const shaped = await shapeOutput(npmTest, {
      config: config(),
      callId: 'c',
      spill: { sandbox: broken, workspace: ws, folder: 'sp' },
    });
    expect(shaped.spillFile).toBeUndefined();
    expect(shaped.text).toContain('the full output could not be saved: read-only file system');
  });

  it('spill file names cannot leave their folder', () => {
    expect(spillFileName('../../etc/passwd')).toBe('__.._etc_passwd.txt');
    expect(spillFileName('..')).toBe('_.txt');
    expect(spillFileName('call_1')).toBe('call_1.txt');
  });
});
