import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aiSdk, floor, floorRead, HARNESS_CONFIGS, harness, openaiAgents, scriptedTurns } from './systems.ts';
import { benchWorkspace, callArgs, MAX_STEPS, toolCallsIn } from './workload.ts';

// Small: the systems read only the first files, and the test times nothing.
const workspace = benchWorkspace(20);
afterAll(() => workspace.dispose());

describe('the per-step workload', () => {
  it('reads N − 1 distinct files in a run of N steps, all of them in the workspace, up to the longest run', () => {
    const paths = Array.from({ length: toolCallsIn(MAX_STEPS) }, (_, i) => callArgs(i).path);
    expect(new Set(paths).size).toBe(MAX_STEPS - 1);
    const files = benchWorkspace(3);
    try {
      for (let i = 0; i < 3; i += 1) expect(existsSync(path.join(files.dir, callArgs(i).path))).toBe(true);
      expect(existsSync(path.join(files.dir, callArgs(3).path))).toBe(false);
    } finally {
      files.dispose();
    }
  });

  it('scripts ours as N − 1 read_file calls on distinct files, then the final answer', () => {
    const turns = scriptedTurns(12);
    expect(turns).toHaveLength(12);
    const calls = turns.slice(0, -1).map((t) => ('tool_calls' in t ? t.tool_calls : undefined));
    const paths = calls.map((c) => (JSON.parse(String(c?.[0]?.arguments)) as { path: string }).path);
    expect(new Set(paths).size).toBe(11);
    expect(turns.at(-1)).toEqual({ content: 'done' });
  });

  it('every system makes N − 1 tool calls and ends with the final answer, twice on one set-up', async () => {
    for (const system of [floor, floorRead, harness(HARNESS_CONFIGS.default), aiSdk, openaiAgents]) {
      const run = system(workspace.dir);
      // Each throws when the calls made are not N − 1 or the run did not end with the answer.
      await run(12);
      await run(5);
    }
  }, 60_000);
});

describe('the floors', () => {
  const nowhere = path.join(workspace.dir, 'no-such-directory');

  it('the bare floor does no file I/O: it runs in a workspace that does not exist', async () => {
    await expect(floor(nowhere)(12)).resolves.toBeUndefined();
  });

  it('"floor + read" reads the files: it fails in a workspace that does not exist', async () => {
    await expect(floorRead(nowhere)(12)).rejects.toThrow(/ENOENT/);
  });
});
