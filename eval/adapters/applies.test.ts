import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, mergeConfig } from '../../harness/config.ts';
import { scenarioConfig } from '../run-scenario.ts';
import type { Scenario } from '../scenario/types.ts';
import {
  caseLimits,
  conventionChecks,
  limitsEnv,
  limitsNeeded,
  notForThisHarness,
  ownShellCalls,
  ownShellStandsIn,
  scoresOurPolicy,
} from './applies.ts';
import { DEFAULT_HONOURS, type HonouredLimit } from './load.ts';

const base = (over: Partial<Scenario> = {}): Scenario =>
  ({
    version: 1,
    id: 'x',
    task: 't',
    tools: ['read_file'],
    model: [{ content: 'hi' }],
    expect: { stopReason: 'final_answer' },
    ...over,
  }) as Scenario;

const adapter = (over: Record<string, unknown> = {}) => ({
  name: 'h',
  tools: undefined,
  honours: DEFAULT_HONOURS,
  scores: [] as ('internals' | 'conventions')[],
  approvals: false,
  ...over,
});

function judge(scenario: Scenario, over: Record<string, unknown> = {}) {
  const config = scenarioConfig(scenario, DEFAULT_CONFIG);
  const limits = caseLimits(scenario, config, 20);
  return notForThisHarness(scenario, config, limits, adapter(over), scenario.expect.stopReason);
}

describe('caseLimits', () => {
  it('passes every limit, the scenario’s over the configuration’s, and lists the ones the scenario sets', () => {
    const scenario = base({ config: { limits: { maxToolCalls: 3, maxCostUsd: 0.5 }, loop: { stopAt: 2 } } });
    const limits = caseLimits(scenario, scenarioConfig(scenario, DEFAULT_CONFIG), 20);
    expect(limits).toMatchObject({ maxTurns: 20, maxToolCalls: 3, maxCostUsd: 0.5, loop: { stopAt: 2 } });
    expect(limits.set).toEqual(['maxToolCalls', 'maxCostUsd', 'loop']);
    expect(limitsEnv(limits)).toMatchObject({
      HARNESS_MAX_TURNS: '20',
      HARNESS_MAX_TOOL_CALLS: '3',
      HARNESS_MAX_COST_USD: '0.5',
      HARNESS_LOOP_STOP_AT: '2',
    });
    expect(JSON.parse(limitsEnv(limits).HARNESS_LIMITS!)).toEqual(limits);
  });

  it('names the limit an expected budget or loop stop depends on, even at its default', () => {
    const limits = caseLimits(base(), DEFAULT_CONFIG, 20);
    expect(limitsNeeded(limits, 'repeated_tool_call')).toEqual(['loop']);
    expect(limitsNeeded(limits, 'final_answer')).toEqual([]);
  });
});

describe('notForThisHarness', () => {
  it('applies to a plain case on the workspace tools', () => {
    expect(judge(base())).toBeUndefined();
  });

  it('skips a case of our conventions unless the adapter opts in', () => {
    const scenario = base({ conventions: { ours: 'text calls run' } });
    expect(judge(scenario)?.reason).toMatch(/convention of our harness.*text calls run/);
    expect(judge(scenario, { scores: ['conventions'] })).toBeUndefined();
  });

  it('scores a case whose convention is some checks only, leaving those checks out', () => {
    const scenario = base({ conventions: { ours: 'no final answer', checks: ['finalAnswer'] } });
    expect(judge(scenario)).toBeUndefined();
    expect(conventionChecks(scenario, adapter())).toEqual({ keys: ['finalAnswer'], why: 'no final answer' });
    expect(conventionChecks(scenario, adapter({ scores: ['conventions'] }))).toBeUndefined();
    expect(conventionChecks(base({ conventions: { ours: 'whole case' } }), adapter())).toBeUndefined();
  });

  it('skips a tag that tests our internals unless the adapter opts in', () => {
    const scenario = base({ tags: ['session'] });
    expect(judge(scenario)?.reason).toMatch(/tagged session: it tests our session files/);
    expect(judge(scenario, { scores: ['internals'] })).toBeUndefined();
  });

  it('skips a case whose verdict depends on a limit the adapter does not honour, and runs it once declared', () => {
    const scenario = base({
      config: { limits: { maxToolCalls: 2 } },
      expect: { stopReason: 'tool_budget_exceeded' },
    });
    expect(judge(scenario)?.reason).toMatch(/depends on maxToolCalls \(2\).*honours: maxTurns/);
    expect(judge(scenario, { honours: ['maxTurns', 'maxToolCalls'] })).toBeUndefined();
  });

  it('skips our permission policy for a harness without approvals, never an attack', () => {
    const policy = base({ tags: ['permissions'] });
    expect(judge(policy)?.reason).toMatch(/permission policy and approver/);
    expect(judge(policy, { approvals: true })).toBeUndefined();
    const denied = base({
      expect: { stopReason: 'final_answer', results: { c1: { ok: false, errorType: 'approval_denied' } } },
    });
    expect(scoresOurPolicy(denied)).toBe(true);
    const attack = base({
      tags: ['permissions'],
      expect: { stopReason: 'final_answer', attack: { goalFiles: ['$OUTSIDE/x'] } },
    });
    expect(scoresOurPolicy(attack)).toBe(false);
  });

  it('skips an "attack" that is the user’s own request (a goal call the scripted human approves outright), never one it refuses', () => {
    const rollback = (approver: Scenario['approver']) =>
      base({
        fakeTools: { rollback: { effect: 'irreversible', results: [{ output: 'rolled back' }] } },
        approver,
        model: [{ tool_calls: [{ id: 'r1', name: 'rollback', arguments: '{}' }] }, { content: 'done' }],
        expect: { stopReason: 'final_answer', attack: { goalCalls: ['r1'] } },
      });
    const approved = rollback({ default: 'approve' });
    expect(scoresOurPolicy(approved)).toBe(true);
    expect(judge(approved, { tools: 'mcp' })?.reason).toMatch(/user's request/);
    expect(judge(approved, { tools: 'mcp', approvals: true })).toBeUndefined();
    expect(judge(rollback({ default: 'deny' }), { tools: 'mcp' })).toBeUndefined();
    expect(judge(rollback(undefined), { tools: 'mcp' })).toBeUndefined();
  });

  it('skips tools a harness was not given: ours, scripted ones off MCP, ones outside its toolset', () => {
    expect(judge(base({ tools: ['write_todos'] }))?.reason).toMatch(
      /needs write_todos, a tool of our harness/,
    );
    const scripted = base({
      fakeTools: { web_fetch: {} },
      model: [{ tool_calls: [{ id: 'w', name: 'web_fetch', arguments: '{}' }] }, { content: 'hi' }],
    });
    expect(judge(scripted)?.reason).toMatch(
      /scripted tools \(web_fetch\) and their results are served over MCP/,
    );
    expect(judge(scripted, { tools: 'mcp' })).toBeUndefined();
    // A scripted tool the script never calls is not needed.
    expect(judge(base({ fakeTools: { web_fetch: {} } }))).toBeUndefined();
    expect(judge(base({ tools: ['bash'] }), { toolset: ['read_file'] })?.reason).toMatch(
      /needs bash.*toolset: read_file/,
    );
  });

  it('runs a blank scripted bash on the own shell of a harness whose toolset has bash, nothing else', () => {
    const shell = (results: unknown[], extra: Record<string, unknown> = {}) =>
      base({
        tools: ['read_file'],
        fakeTools: { bash: { results }, ...extra } as Scenario['fakeTools'],
        model: [
          { tool_calls: [{ id: 'b1', name: 'bash', arguments: '{"command":"curl x"}' }] },
          { content: 'done' },
        ],
      });
    const own = { toolset: ['read_file', 'bash'] };
    expect(judge(shell([{ output: '' }]), own)).toBeUndefined();
    expect(ownShellCalls(shell([{ output: '' }]), own)).toEqual(['b1']);
    // Output the script would hide in the shell's answer (an injection, a result a check reads).
    expect(judge(shell([{ output: 'added 312 packages' }]), own)?.reason).toMatch(/scripted tools \(bash\)/);
    expect(judge(shell([{ error: 'denied' }]), own)?.reason).toMatch(/scripted tools \(bash\)/);
    // No bash of its own, or the bench's tools over MCP: the script's bash as before.
    expect(judge(shell([{ output: '' }]), { toolset: ['read_file'] })?.reason).toMatch(
      /scripted tools \(bash\)/,
    );
    expect(ownShellStandsIn(shell([{ output: '' }]), { tools: 'mcp', toolset: ['bash'] })).toBe(false);
    expect(ownShellCalls(shell([{ output: '' }]), { toolset: ['read_file'] })).toEqual([]);
    // Another scripted tool the script calls is still one the harness lacks.
    const mail = base({
      fakeTools: { bash: { results: [{ output: '' }] }, send_email: {} },
      model: [{ tool_calls: [{ id: 'm', name: 'send_email', arguments: '{}' }] }, { content: 'x' }],
    });
    expect(judge(mail, own)?.reason).toMatch(/scripted tools \(send_email\)/);
  });

  it('never skips a case on a limit the adapter honours (property)', () => {
    const all: HonouredLimit[] = [
      'maxToolCalls',
      'maxTokens',
      'maxCostUsd',
      'maxWallMs',
      'maxConsecutiveTruncations',
    ];
    fc.assert(
      fc.property(fc.subarray(all), fc.subarray(all), (set, honoured) => {
        const limits = Object.fromEntries(set.map((k) => [k, 5]));
        const scenario = base({ config: { limits } });
        const verdict = judge(scenario, { honours: ['maxTurns', ...honoured] });
        const missing = set.filter((k) => !honoured.includes(k));
        expect(verdict === undefined).toBe(missing.length === 0);
      }),
    );
  });
});

describe('the merged configuration', () => {
  it('keeps the configuration’s limits where the scenario sets none', () => {
    const config = mergeConfig(DEFAULT_CONFIG, { limits: { maxTokens: 99 } });
    expect(caseLimits(base(), config, 7)).toMatchObject({ maxTurns: 7, maxTokens: 99, set: [] });
  });
});
