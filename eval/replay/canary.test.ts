import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.ts';
import type { CaseResult } from '../results.ts';
import { canaryVerdict, isCanaryFile, loadCanary } from './canary.ts';

const BASE = path.resolve('recordings/real/fantasy-openai-gpt5-parallel-tools.json');

function canaryFile(doc: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'canary-'));
  const file = path.join(dir, 'edit.canary.json');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

function problem(doc: unknown): string {
  try {
    loadCanary(canaryFile(doc), 'edit.canary.json');
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    const p = (error as InputError).problems[0]!;
    return `${p.path}: ${p.reason}`;
  }
  throw new Error('loaded');
}

const result = (firstDivergence?: string): CaseResult =>
  ({
    id: 'recording/canary-edit',
    status: 'fail',
    checks: [
      { name: 'replay.divergences', pass: false, expected: 0, observed: 1, reason: '1 request differs' },
      { name: 'replay.completed', pass: true, expected: true, observed: true, reason: 'ran' },
    ],
    findings: firstDivergence ? { firstDivergence } : {},
  }) as unknown as CaseResult;

describe('canary cassettes', () => {
  it('are found by name and load as the base cassette with the patch applied', () => {
    expect(isCanaryFile('a/b.canary.json')).toBe(true);
    expect(isCanaryFile('a/b.json')).toBe(false);
    const file = canaryFile({
      canary: 'another model',
      base: BASE,
      patch: [{ op: 'replace', path: '/exchanges/1/request/body/model', value: 'gpt-4o' }],
      flags: 'exchange 1 /model',
    });
    const { cassette, canary } = loadCanary(file, 'edit.canary.json');
    expect(cassette.meta.id).toBe('canary-edit');
    expect((cassette.exchanges[1]!.request.body as { model: string }).model).toBe('gpt-4o');
    expect(canary).toEqual({ edit: 'another model', flags: 'exchange 1 /model' });
  });

  it('are bad input with the path and reason when a field is missing or the patch does not apply', () => {
    expect(problem({ base: BASE, patch: [{ op: 'remove', path: '/meta/title' }], flags: 'x' })).toBe(
      '/canary: must be a non-empty string',
    );
    expect(problem({ canary: 'c', base: BASE, patch: [], flags: 'x' })).toBe(
      '/patch: must be a non-empty JSON Patch list',
    );
    expect(
      problem({ canary: 'c', base: BASE, patch: [{ op: 'remove', path: '/exchanges/9' }], flags: 'x' }),
    ).toMatch(/^\/patch\/0: does not apply/);
    expect(
      problem({ canary: 'c', base: '/nowhere.json', patch: [{ op: 'remove', path: '/x' }], flags: 'x' }),
    ).toMatch(/^\/base: the base is not a cassette/);
  });

  it('pass only when the replay reports the expected first divergence, replacing the replay checks', () => {
    const spec = { edit: 'model', flags: 'exchange 1 /model' };
    const flagged = canaryVerdict(result('exchange 1 /model'), spec);
    expect(flagged.status).toBe('pass');
    expect(flagged.checks.map((c) => c.name)).toEqual(['replay.canary']);
    expect(canaryVerdict(result('exchange 1 /messages/0'), spec).status).toBe('fail');
    // Inside the named place counts; a sibling that shares its prefix does not.
    const at = { edit: 'message', flags: 'exchange 1 /messages/2' };
    expect(canaryVerdict(result('exchange 1 /messages/2/content'), at).status).toBe('pass');
    expect(canaryVerdict(result('exchange 1 /messages/20'), at).status).toBe('fail');
    const silent = canaryVerdict(result(), spec);
    expect(silent.status).toBe('fail');
    expect(silent.checks[0]!.reason).toContain('did not flag the edit');
  });
});
