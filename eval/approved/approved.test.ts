import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config-load.ts';
import { runScenario } from '../run-scenario.ts';
import { loadScenarios } from '../scenario/load.ts';
import { behaviourOf, clip, KEEP_CHARS } from './behaviour.ts';
import { approvalGate } from './gate.ts';
import { approvedBehaviour, approvedPath, readApproved, writeApproved } from './store.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(path.join(tmpdir(), 'hb-approved-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function ran(id: string) {
  const { scenarios } = await loadScenarios([`scenarios/${id}.*`], ROOT);
  const { name, config } = loadConfig();
  const out = await runScenario(scenarios[0]!, { name, config });
  return { result: out.result, run: out.run! };
}

describe('approved behaviour', () => {
  it('clips long texts to their start and a hash of the whole, so any changed byte shows', () => {
    const long = 'x'.repeat(KEEP_CHARS + 50);
    expect(clip('short')).toBe('short');
    expect(clip(long)).toMatch(/…\[290 chars, sha256:[0-9a-f]{16}\]$/);
    expect(clip(`${long.slice(0, -1)}y`)).not.toBe(clip(long));
  });

  it('is the same for two runs of a case, and holds its requests, calls and events', async () => {
    const a = await ran('bad-json/trailing-comma');
    const b = await ran('bad-json/trailing-comma');
    expect(behaviourOf(b.result, b.run)).toEqual(behaviourOf(a.result, a.run));
    const behaviour = behaviourOf(a.result, a.run);
    expect(behaviour.requests.length).toBe(a.run.requests.length);
    expect(behaviour.requests[1]!.kept).toBeGreaterThan(0);
    expect(behaviour.calls.map((c) => c[0])).toEqual(a.run.ledger.calls.map((c) => c.callId));
    expect(behaviour.events.length).toBeGreaterThan(0);
  });

  it('stores configurations that behave alike once, and reads them back', async () => {
    const { result, run } = await ran('bad-json/trailing-comma');
    const b = behaviourOf(result, run);
    writeApproved(dir, 'x/one', { default: b, strict: b });
    const file = readApproved(dir, 'x/one')!;
    expect(file.behaviours.strict).toEqual({ same: 'default' });
    expect(approvedBehaviour(file, 'strict')).toEqual(b);
    expect(approvedPath(dir, 'x/one')).toBe(path.join(dir, 'x', 'one.json'));
    expect(readFileSync(approvedPath(dir, 'x/one'), 'utf8').endsWith('\n')).toBe(true);
  });

  it('passes an unchanged case, fails a changed one with the first divergence, and asks to approve a new one', async () => {
    const { result, run } = await ran('hallucinated-tool/case-mismatch');
    const write = approvalGate({ dir, mode: 'write', sandbox: true });
    write.apply(result, run);
    expect(write.flush()).toEqual({ cases: 1, changed: 1 });
    const check = approvalGate({ dir, mode: 'check', sandbox: true });
    const same = check.apply(result, run);
    expect(same.checks.at(-1)).toMatchObject({ name: 'approved', pass: true });
    expect(same.status).toBe(result.status);
    // A one-line break: the result the model saw for the first call changes.
    const broken = structuredClone(run);
    broken.ledger.calls[0]!.content = `${broken.ledger.calls[0]!.content} (changed)`;
    const changed = check.apply(result, broken);
    expect(changed.status).toBe('fail');
    expect(changed.firstFailure).toMatch(/behaviour changed: \/calls\/0\/9: approved "\{.*, now "\{/);
    const elsewhere = approvalGate({ dir, mode: 'check', sandbox: false }).apply(result, run);
    expect(elsewhere.checks.at(-1)).toMatchObject({ name: 'approved', status: 'not_applicable' });
    expect(elsewhere.status).toBe(result.status);
    // A foreign harness is keyed apart: never held to our approved behaviour, even when it differs.
    const foreign = check.apply(result, broken, 'their-harness');
    expect(foreign.checks.at(-1)).toMatchObject({ name: 'approved', status: 'not_applicable' });
    expect(foreign.status).toBe(result.status);
  });
});
