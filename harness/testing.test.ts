import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// The public harness testing entry, imported by its package name as a user's suite would.
import { OpenAIModel } from 'harness-bench';
import {
  completion,
  deterministicDeps,
  executedIds,
  expectRunConsistent,
  json,
  runScript,
  tempWorkspace,
  toolResult,
  useStub,
} from 'harness-bench/harness-testing';

const stub = useStub();
const workspaces: { dispose: () => void }[] = [];
afterEach(() => {
  for (const w of workspaces.splice(0)) w.dispose();
});

describe('harness-bench/harness-testing', () => {
  it('runScript runs a scripted model over the file tools; the invariants hold', async () => {
    const ws = tempWorkspace();
    workspaces.push(ws);
    writeFileSync(path.join(ws.ws, 'a.txt'), 'alpha\n');
    const result = await runScript(ws.ws, [
      { tool_calls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a.txt' } }] },
      { tool_calls: [{ id: 'c2', name: 'read_file', arguments: { path: '../outside/x' } }] },
      { content: 'alpha' },
    ]);
    expectRunConsistent(result);
    expect(result.stopReason).toBe('final_answer');
    expect(executedIds(result)).toEqual(['c1']);
    expect(toolResult(result, 'c1').content).toContain('alpha');
    expect(toolResult(result, 'c2').error?.type).toBe('path_outside_workspace');
  });

  it('the stub server answers on 127.0.0.1 with what was queued and logs the request', async () => {
    stub().queue.push(json(200, completion({ content: 'hi' })));
    const model = new OpenAIModel({ baseURL: stub().baseURL, apiKey: 'k', deps: deterministicDeps() });
    const turn = await model.generate({ model: 'm', messages: [{ role: 'user', content: 'hello' }] });
    expect(turn.content).toBe('hi');
    expect(stub().baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(stub().received.map((r) => r.path)).toEqual(['/v1/chat/completions']);
  });
});
