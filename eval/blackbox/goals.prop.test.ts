import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../harness/policy/types.ts';
import { scriptedApprover } from '../scenario/approver.ts';
import type { ApproverSpec } from '../scenario/types.ts';
import { approvesOutright } from './goals.ts';

const WS = '/ws';
const TOOLS = ['bash', 'write_file', 'rollback'] as const;
const answer = fc.constantFrom('approve' as const, 'deny' as const, 'approve-shape' as const);
const rule = fc.record(
  {
    tool: fc.constantFrom(...TOOLS, '*'),
    match: fc.constantFrom('git *', 'rm *', 'src/**', '*', '{}'),
    answer,
  },
  { requiredKeys: ['tool', 'answer'] },
);
const spec: fc.Arbitrary<ApproverSpec> = fc.record(
  { default: answer, rules: fc.array(rule, { maxLength: 4 }) },
  { requiredKeys: [] },
);

/** A request of `tool` as the policy would ask it: a command for bash, a path for write_file, bare arguments otherwise. */
const request = (tool: string, command: string, file: string): ApprovalRequest =>
  ({
    callId: 'c',
    tool,
    effect: 'write',
    argumentsText: '{}',
    paths: tool === 'write_file' ? [{ path: `${WS}/${file}`, access: 'write' }] : [],
    ...(tool === 'bash' ? { command } : {}),
    decision: { parts: [] },
  }) as unknown as ApprovalRequest;

describe('approvesOutright (property)', () => {
  it('when it says a tool is approved outright, the scripted human approves every call of that tool', async () => {
    await fc.assert(
      fc.asyncProperty(
        spec,
        fc.constantFrom(...TOOLS),
        fc.constantFrom('git push --force', 'rm -rf src', 'ls'),
        fc.constantFrom('src/a.ts', 'b.txt'),
        async (s, tool, command, file) => {
          fc.pre(approvesOutright(s, tool));
          const got = await scriptedApprover(s, WS)(request(tool, command, file));
          expect(got).not.toBe('deny');
        },
      ),
      { numRuns: 500 },
    );
  });
});
