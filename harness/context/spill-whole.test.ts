import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runScript, tempWorkspace, toolResult } from '../testing.ts';
import { LocalSandbox } from '../sandbox/local.ts';
import { bashTool } from '../tools/builtin/bash.ts';
import { FILE_TOOLS } from '../tools/builtin/files.ts';
import type { ToolDefinition } from '../tools/types.ts';

const tools = [bashTool as unknown as ToolDefinition, ...Object.values(FILE_TOOLS)];
let dispose: (() => void) | undefined;
afterEach(() => dispose?.());

describe('spill of outputs a tool shaped itself (bash head and tail)', () => {
  it('keeps the whole command output in a spill file the model can page through', async () => {
    const { ws, dispose: d } = tempWorkspace();
    dispose = d;
    const script = [
      { tool_calls: [{ id: 'b1', name: 'bash', arguments: { command: 'seq 1 20000' } }] },
      { content: 'done' },
    ];
    const result = await runScript(ws, script, {
      tools,
      sandbox: new LocalSandbox({ allowExec: true }),
      config: { sandbox: { kind: 'none' }, permissions: { mode: 'auto' } },
    });
    const content = toolResult(result, 'b1').content;
    expect(content).toMatch(/elided/);
    const match = /saved in (\S+): page through it with read_file/.exec(content);
    expect(match).not.toBeNull();
    const file = path.join(ws, match![1]!);
    expect(existsSync(file)).toBe(true);
    const whole = readFileSync(file, 'utf8');
    expect(whole).toContain('\n10000\n');
    expect(whole.length).toBeGreaterThan(content.length * 5);
    expect(result.events.some((e) => e.type === 'compaction' && e.layer === 'spill')).toBe(true);
  });

  it('writes no spill file when the output was not cut', async () => {
    const { ws, dispose: d } = tempWorkspace();
    dispose = d;
    const result = await runScript(
      ws,
      [{ tool_calls: [{ id: 'b1', name: 'bash', arguments: { command: 'echo short' } }] }, { content: 'ok' }],
      {
        tools,
        sandbox: new LocalSandbox({ allowExec: true }),
        config: { sandbox: { kind: 'none' }, permissions: { mode: 'auto' } },
      },
    );
    expect(toolResult(result, 'b1').content).not.toMatch(/saved in/);
    expect(result.events.some((e) => e.type === 'compaction')).toBe(false);
  });
});
