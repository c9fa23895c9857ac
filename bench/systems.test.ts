import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deterministicDeps } from '../harness/deps.ts';
import { runHarness } from '../harness/loop/run.ts';
import { ScriptedModel } from '../harness/model/scripted-model.ts';
import { LocalSandbox } from '../harness/sandbox/local.ts';
import { FILE_TOOLS } from '../harness/tools/builtin/files.ts';
import { aiSdk, floor, floorRead, HARNESS_CONFIGS, harness, openaiAgents, scriptedTurns } from './systems.ts';
import {
  benchWorkspace,
  callArgs,
  FILE_LINES,
  fileText,
  MAX_STEPS,
  readLines,
  toolCallsIn,
} from './workload.ts';

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

  it('holds the files in 10 folders of 100, each a few hundred bytes of its own, and every call reads one whole file', () => {
    expect(callArgs(0)).toEqual({ path: 'dir00/f0000.txt' });
    expect(callArgs(998)).toEqual({ path: 'dir09/f0998.txt' });
    const folders = Array.from({ length: toolCallsIn(MAX_STEPS) }, (_, i) => path.dirname(callArgs(i).path));
    expect(new Set(folders).size).toBe(10);
    const texts = Array.from({ length: toolCallsIn(MAX_STEPS) }, (_, i) => fileText(i));
    expect(new Set(texts).size).toBe(MAX_STEPS - 1);
    for (const text of texts) {
      expect(text.split('\n')).toHaveLength(FILE_LINES + 1);
      expect(text.length).toBeGreaterThanOrEqual(300);
      expect(text.length).toBeLessThanOrEqual(400);
    }
    const body = readLines(workspace.dir, callArgs(7));
    expect(body.split('\n')).toHaveLength(FILE_LINES);
    expect(body.startsWith('1\tf0007.txt line 1:')).toBe(true);
  });

  it("our read_file returns what the peers' tool body returns, the whole file numbered", async () => {
    const result = await runHarness({
      task: 'read the files',
      config: HARNESS_CONFIGS.default,
      model: new ScriptedModel(scriptedTurns(6)),
      tools: [FILE_TOOLS.read_file!],
      sandbox: new LocalSandbox({ allowExec: false }),
      workspace: workspace.dir,
      deps: deterministicDeps(),
    });
    const results = result.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toEqual(Array.from({ length: 5 }, (_, i) => readLines(workspace.dir, callArgs(i))));
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
