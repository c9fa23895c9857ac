import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deterministicDeps } from '../deps.ts';
import type { ApprovalAnswer, ApprovalRequest } from '../policy/types.ts';
import { executedIds, expectRunConsistent, runScript, tempWorkspace, toolResult } from '../testing.ts';

let space: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  space = tempWorkspace();
});
afterEach(() => space.dispose());

const write = (id: string, file: string, content = 'x') => ({
  id,
  name: 'write_file',
  arguments: JSON.stringify({ path: file, content }),
});

/** Deterministic deps whose approver answers from a list and records what it was shown. */
function approving(...answers: (ApprovalAnswer | Error)[]) {
  const seen: ApprovalRequest[] = [];
  const deps = deterministicDeps();
  deps.approver = async (request) => {
    seen.push(request);
    const answer = answers.shift() ?? 'deny';
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { deps, seen };
}

describe('runHarness: approvals', () => {
  it('interactive: the approver sees the resolved call and an approve runs it', async () => {
    const { deps, seen } = approving('approve');
    const result = await runScript(
      space.ws,
      [{ tool_calls: [write('w', 'src/../a.txt', 'hi\u202e')] }, { content: 'done' }],
      { deps },
    );
    expect(executedIds(result)).toEqual(['w']);
    expect(readFileSync(path.join(space.ws, 'a.txt'), 'utf8')).toBe('hi\u202e');
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      callId: 'w',
      tool: 'write_file',
      effect: 'write',
      paths: [{ path: path.join(space.ws, 'a.txt'), access: 'write' }],
    });
    expect(seen[0]!.argumentsText).toBe('{"path":"src/../a.txt","content":"hi\\u{202e}"}');
    expect(seen[0]!.decision).toMatchObject({ action: 'ask', rule: 'effects:write' });
    expect(result.ledger.calls[0]).toMatchObject({ verdict: 'ask:approved', approvedBy: 'approver' });
    expectRunConsistent(result);
  });

  it('interactive: a deny is approval_denied and nothing is written', async () => {
    const { deps } = approving('deny');
    const result = await runScript(space.ws, [{ tool_calls: [write('w', 'a.txt')] }, { content: 'done' }], {
      deps,
    });
    expect(toolResult(result, 'w').error).toMatchObject({ type: 'approval_denied', retryable: false });
    expect(existsSync(path.join(space.ws, 'a.txt'))).toBe(false);
    expect(result.ledger.calls[0]).toMatchObject({ verdict: 'ask:denied', executed: false });
  });

  it('interactive: an approver that throws counts as a denial', async () => {
    const { deps } = approving(new Error('ui crashed'));
    const result = await runScript(space.ws, [{ tool_calls: [write('w', 'a.txt')] }, { content: 'done' }], {
      deps,
    });
    expect(result.stopReason).toBe('final_answer');
    expect(toolResult(result, 'w').error).toMatchObject({ type: 'approval_denied' });
  });

  it('interactive without an approver: nobody can answer, so the ask is denied', async () => {
    const result = await runScript(space.ws, [{ tool_calls: [write('w', 'a.txt')] }, { content: 'done' }]);
    expect(toolResult(result, 'w').error).toMatchObject({ type: 'approval_denied' });
    expect(result.ledger.calls[0]!.approvedBy).toBe('none');
  });

  it('interactive: an approveShape grant (a glob over the path for file tools) is reused for a later matching call without asking again', async () => {
    const { deps, seen } = approving({ approveShape: 'src/**' });
    const result = await runScript(
      space.ws,
      [
        { tool_calls: [write('w1', 'src/a.ts')] },
        { tool_calls: [write('w2', 'src/deep/b.ts')] },
        { tool_calls: [write('w3', 'lib/c.ts')] },
        { content: 'done' },
      ],
      { deps },
    );
    expect(seen.map((s) => s.callId)).toEqual(['w1', 'w3']);
    expect(executedIds(result)).toEqual(['w1', 'w2']);
    const approvals = result.events.filter((e) => e.type === 'approval_decision');
    expect(approvals.map((e) => [e.callId, e.approved, e.by, e.grant ?? null])).toEqual([
      ['w1', true, 'approver', 'write_file:src/**'],
      ['w2', true, 'grant', 'write_file:src/**'],
      ['w3', false, 'approver', null],
    ]);
    expectRunConsistent(result);
  });

  it('headless: every ask is approval_denied without asking anyone', async () => {
    const { deps, seen } = approving('approve');
    const result = await runScript(
      space.ws,
      [
        { tool_calls: [write('w', 'a.txt'), { id: 'r', name: 'list_dir', arguments: '{"path":"."}' }] },
        { content: 'done' },
      ],
      {
        deps,
        config: { permissions: { mode: 'headless' } },
      },
    );
    expect(seen).toEqual([]);
    expect(toolResult(result, 'w').error).toMatchObject({ type: 'approval_denied' });
    expect(executedIds(result)).toEqual(['r']);
    expect(result.ledger.calls[0]!.approvedBy).toBe('headless');
  });

  it('auto: asks are approved without asking anyone', async () => {
    const { deps, seen } = approving('deny');
    const result = await runScript(
      space.ws,
      [{ tool_calls: [write('w', 'a.txt', 'auto')] }, { content: 'done' }],
      { deps, config: { permissions: { mode: 'auto' } } },
    );
    expect(seen).toEqual([]);
    expect(readFileSync(path.join(space.ws, 'a.txt'), 'utf8')).toBe('auto');
    expect(result.ledger.calls[0]).toMatchObject({ verdict: 'ask:approved', approvedBy: 'auto' });
  });

  it('plan: writes are denied by policy (policy_violation), reads run', async () => {
    const { deps, seen } = approving('approve');
    const result = await runScript(
      space.ws,
      [
        { tool_calls: [write('w', 'a.txt'), { id: 'r', name: 'list_dir', arguments: '{"path":"."}' }] },
        { content: 'done' },
      ],
      {
        deps,
        config: { permissions: { mode: 'plan' } },
      },
    );
    expect(seen).toEqual([]);
    expect(toolResult(result, 'w').error).toMatchObject({
      type: 'policy_violation',
      message: expect.stringContaining('plan mode is read-only'),
    });
    expect(executedIds(result)).toEqual(['r']);
  });

  it('no approval overrides a path outside the workspace: the approver is never asked (case E07)', async () => {
    symlinkSync(space.outside, path.join(space.ws, 'outbox'));
    symlinkSync(path.join(space.outside, 'not-yet.txt'), path.join(space.ws, 'draft.txt'));
    const { deps, seen } = approving('approve', 'approve', 'approve', 'approve');
    const result = await runScript(
      space.ws,
      [
        {
          tool_calls: [
            write('s1', 'outbox/escaped.txt'),
            write('s2', 'draft.txt'),
            write('s3', '../outside/x.txt'),
            write('s4', `${space.ws}/nope/../outbox/y.txt`),
            {
              id: 's5',
              name: 'read_file',
              arguments: JSON.stringify({ path: path.join(space.outside, 'z') }),
            },
          ],
        },
        { content: 'done' },
      ],
      { deps, config: { permissions: { paths: [{ pattern: '**', access: 'write', action: 'allow' }] } } },
    );
    expect(seen).toEqual([]);
    for (const id of ['s1', 's2', 's3', 's4', 's5'])
      expect(toolResult(result, id).error?.type, id).toBe('path_outside_workspace');
    expect(executedIds(result)).toEqual([]);
    expect(
      existsSync(path.join(space.outside, 'escaped.txt')) ||
        existsSync(path.join(space.outside, 'not-yet.txt')) ||
        existsSync(path.join(space.outside, 'y.txt')),
    ).toBe(false);
  });
});
