import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deterministicDeps } from '../../harness/deps.ts';
import { recordingDeps, replayDeps } from './recording-deps.ts';
import { snapshotWorkspace } from './workspace-fixture.ts';

describe('recording deps', () => {
  it('a replay draws the same clock values, ids and random numbers as the recording', () => {
    const recording = recordingDeps(deterministicDeps({ startMs: 5000, stepMs: 13 }), {
      idSeed: 'ab12cd34',
      randomSeed: 42,
    });
    const live = recording.deps;
    const drawn = [
      live.now(),
      live.newId('call_'),
      live.random(),
      live.now(),
      live.newId('call_'),
      live.newId('run_'),
      live.random(),
    ];
    const cassetteDeps = recording.drawn();
    expect(cassetteDeps).toEqual({ clock: [5000, 5013], idSeed: 'ab12cd34', randomSeed: 42 });
    const replay = replayDeps(cassetteDeps);
    expect([
      replay.now(),
      replay.newId('call_'),
      replay.random(),
      replay.now(),
      replay.newId('call_'),
      replay.newId('run_'),
      replay.random(),
    ]).toEqual(drawn);
    expect(drawn[1]).toBe('call_ab12cd34_0001');
    expect([replay.now(), replay.now()]).toEqual([5014, 5015]);
  });
});

describe('workspace fixture', () => {
  it('keeps text files, leaves out secrets, binaries, links and tool folders', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'hb-fixture-'));
    mkdirSync(path.join(root, 'src'));
    mkdirSync(path.join(root, '.git'));
    writeFileSync(path.join(root, 'src/a.ts'), 'export {}\n');
    writeFileSync(path.join(root, '.env'), 'KEY=1');
    writeFileSync(path.join(root, 'img.bin'), Buffer.from([1, 0, 2]));
    writeFileSync(path.join(root, '.git/HEAD'), 'ref');
    symlinkSync(path.join(root, 'src/a.ts'), path.join(root, 'link.ts'));
    const fixture = await snapshotWorkspace(root);
    expect(fixture).toEqual({
      ok: true,
      files: { 'src/a.ts': 'export {}\n' },
      skipped: ['.env', 'img.bin', 'link.ts'],
    });
  });

  it('is left out over the limits', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'hb-fixture-'));
    for (const name of ['a', 'b', 'c']) writeFileSync(path.join(root, name), 'x');
    expect(await snapshotWorkspace(root, { maxFiles: 2, maxBytes: 100 })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('more than 2 files'),
    });
  });
});
