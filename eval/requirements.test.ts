import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CallRecord } from '../harness/ledger.ts';
import { BWRAP_INSTALL_HINT } from '../harness/sandbox/bwrap.ts';
import {
  checkRequirements,
  explainMissingSandbox,
  isCI,
  probeSandbox,
  sandboxFix,
  unmetCase,
  type SandboxProbe,
} from './requirements.ts';
import { PACKAGE_ROOT } from './config-load.ts';
import { caseFromRun, type CaseResult } from './results.ts';
import { loadScenarios } from './scenario/load.ts';

const missing: SandboxProbe = async (kind) =>
  kind === 'bwrap'
    ? { ok: false, message: 'bubblewrap is not installed (no "bwrap" found)', hint: BWRAP_INSTALL_HINT }
    : { ok: false, message: 'sandbox-exec runs only on macOS', hint: 'run on macOS' };
const present: SandboxProbe = async () => ({ ok: true });
const bin = mkdtempSync(path.join(tmpdir(), 'hb-req-'));
writeFileSync(path.join(bin, 'chromium'), '#!/bin/sh\n');
chmodSync(path.join(bin, 'chromium'), 0o755);
writeFileSync(path.join(bin, 'not-executable'), '');
afterAll(() => rmSync(bin, { recursive: true, force: true }));

describe('checkRequirements', () => {
  it('sandbox follows the configuration: auto is bubblewrap on Linux and Seatbelt on macOS, none needs nothing', async () => {
    const linux = { platform: 'linux' as const, probe: missing };
    expect(await checkRequirements(['sandbox'], { ...linux, sandboxKind: 'auto' })).toEqual([
      {
        requirement: 'sandbox',
        reason: 'bubblewrap is not installed (no "bwrap" found)',
        fix: sandboxFix(BWRAP_INSTALL_HINT),
      },
    ]);
    expect(await checkRequirements(['sandbox'], { ...linux, sandboxKind: 'none' })).toEqual([]);
    expect(
      await checkRequirements(['sandbox'], { sandboxKind: 'auto', platform: 'darwin', probe: missing }),
    ).toMatchObject([{ requirement: 'sandbox', reason: 'sandbox-exec runs only on macOS' }]);
    expect(
      await checkRequirements(['sandbox'], { sandboxKind: 'auto', platform: 'win32', probe: present }),
    ).toMatchObject([{ reason: 'no sandbox is known for platform win32' }]);
    expect(
      await checkRequirements(['sandbox', 'bwrap'], { ...linux, sandboxKind: 'auto', probe: present }),
    ).toEqual([]);
  });

  it('platforms, a browser and commands are looked for on this machine; duplicates are checked once', async () => {
    const context = { sandboxKind: 'none' as const, platform: 'linux' as const, path: bin, probe: present };
    expect(await checkRequirements(['linux', 'browser', 'browser'], context)).toEqual([]);
    expect(await checkRequirements(['macos', 'command:chromium', 'command:not-executable'], context)).toEqual(
      [
        {
          requirement: 'macos',
          reason: 'the case runs only on macOS (this is Linux)',
          fix: 'run it on macOS',
        },
        {
          requirement: 'command:not-executable',
          reason: 'no "not-executable" on PATH',
          fix: 'install not-executable so that it is on PATH',
        },
      ],
    );
    expect(await checkRequirements(['browser'], { ...context, path: '' })).toMatchObject([
      { requirement: 'browser', fix: expect.stringContaining('apt-get install -y chromium') },
    ]);
  });

  it('the fix of a missing sandbox is to install it, not to run commands unboxed', () => {
    expect(sandboxFix(BWRAP_INSTALL_HINT)).toBe(
      'install bubblewrap (Debian/Ubuntu: apt-get install -y bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)',
    );
    expect(sandboxFix('run on macOS')).toBe('run on macOS');
  });

  it.runIf(process.platform === 'linux')('probes the real sandbox once per process', async () => {
    const first = probeSandbox('bwrap');
    expect(probeSandbox('bwrap')).toBe(first);
    expect(await first).toHaveProperty('ok');
  });

  it('CI is read as the sandbox tests read it', () => {
    expect(isCI({ CI: 'true' })).toBe(true);
    expect(isCI({ CI: '1' })).toBe(true);
    expect(isCI({ CI: 'false' })).toBe(false);
    expect(isCI({})).toBe(false);
  });
});

const base = { id: 'escape/x', kind: 'scenario' as const, config: 'default', file: 'x.yaml', tags: [] };
const unmet = [
  { requirement: 'bwrap', reason: 'bubblewrap is not installed', fix: 'apt-get install -y bubblewrap' },
];

describe('unmetCase', () => {
  it('is skipped with the reason and the fix, and counts nothing', () => {
    const result = unmetCase(base, unmet, true, { platform: 'linux' }, performance.now());
    expect(result).toMatchObject({
      status: 'skipped',
      stopReason: null,
      checks: [],
      skip: {
        requires: ['bwrap'],
        reason: 'bubblewrap is not installed',
        fix: 'apt-get install -y bubblewrap',
        declared: true,
      },
    });
    expect(result.usage.modelCalls).toBe(0);
    expect(result.firstFailure).toBeUndefined();
  });

  it('under CI a missing sandbox is an error (CI promises it); a missing platform is still a skip', () => {
    expect(unmetCase(base, unmet, true, { ci: true, platform: 'linux' }, 0)).toMatchObject({
      status: 'error',
      error: {
        message: expect.stringMatching(
          /^CI promises the sandbox, but bubblewrap is not installed; fix: apt-get/,
        ),
      },
    });
    // bubblewrap on macOS is a platform matter, not a broken promise.
    expect(unmetCase(base, unmet, true, { ci: true, platform: 'darwin' }, 0).status).toBe('skipped');
    const platform = [{ requirement: 'macos', reason: 'only on macOS', fix: 'run it on macOS' }];
    expect(unmetCase(base, platform, true, { ci: true, platform: 'linux' }, 0).status).toBe('skipped');
  });
});

describe('explainMissingSandbox', () => {
  const call = (errorType?: CallRecord['errorType']) =>
    ({ callId: 'c1', tool: 'bash', verdict: 'allow', ...(errorType ? { errorType } : {}) }) as CallRecord;
  const run = (calls: CallRecord[]) => ({
    stopReason: 'final_answer' as const,
    usage: {
      modelCalls: 2,
      turns: 2,
      toolCalls: 1,
      promptTokens: 1,
      completionTokens: 1,
      totalTokens: 2,
      maxPromptTokens: 1,
      costUsd: 0,
      wallMs: 0,
    },
    ledger: { turns: [], calls, stopReason: 'final_answer' as const },
  });
  const failed = (r: ReturnType<typeof run>): CaseResult =>
    caseFromRun(
      base,
      r,
      [{ name: 'results.c1.ok', pass: false, expected: true, observed: false, reason: 'failed' }],
      0,
    );
  const context = { sandboxKind: 'auto' as const, platform: 'linux' as const, declared: [] as string[] };

  it('a failed run that met a missing, undeclared sandbox is skipped and says what to declare', async () => {
    const r = run([call('sandbox_unavailable')]);
    const result = await explainMissingSandbox(failed(r), r, { ...context, probe: missing }, 0);
    expect(result.status).toBe('skipped');
    expect(result.skip).toMatchObject({ requires: ['sandbox'], declared: false });
    expect(result.skip!.reason).toContain('add requires: [sandbox] to the scenario');
    expect(result.skip!.fix).toContain('apt-get install -y bubblewrap');
    expect(
      (await explainMissingSandbox(failed(r), r, { ...context, probe: missing, ci: true }, 0)).status,
    ).toBe('error');
  });

  it('stands when the run passed, met no sandbox_unavailable, declared the sandbox, or the sandbox works here', async () => {
    const hit = run([call('sandbox_unavailable')]);
    const passed = caseFromRun(base, hit, [], 0);
    expect(await explainMissingSandbox(passed, hit, { ...context, probe: missing }, 0)).toBe(passed);
    const other = run([call('tool_failed')]);
    const otherFail = failed(other);
    expect(await explainMissingSandbox(otherFail, other, { ...context, probe: missing }, 0)).toBe(otherFail);
    const declared = failed(hit);
    expect(
      await explainMissingSandbox(declared, hit, { ...context, probe: missing, declared: ['bwrap'] }, 0),
    ).toBe(declared);
    const works = failed(hit);
    expect(await explainMissingSandbox(works, hit, { ...context, probe: present }, 0)).toBe(works);
  });
});

describe('bundled scenarios', () => {
  it('every scenario tagged sandbox declares the sandbox it needs', async () => {
    const { scenarios } = await loadScenarios(['scenarios'], PACKAGE_ROOT);
    const boxed = scenarios.filter(({ scenario }) => scenario.tags?.includes('sandbox'));
    expect(boxed.length).toBeGreaterThanOrEqual(2);
    for (const { file, scenario } of boxed)
      expect(
        (scenario.requires ?? []).some((r) => ['sandbox', 'bwrap', 'seatbelt'].includes(r)),
        `${file} needs requires: [bwrap] (or [sandbox])`,
      ).toBe(true);
  });
});
