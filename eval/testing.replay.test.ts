import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './config-load.ts';
import { replayCassette } from './testing.ts';

const EXAMPLE = 'recordings/examples/stub-read-then-write-asked.json';

describe('replayCassette (harness-bench/testing)', () => {
  it('asserts a recorded session in three lines', async () => {
    const replay = await replayCassette(EXAMPLE, { cwd: PACKAGE_ROOT });
    expect(replay.firstDivergence).toBeUndefined();
    expect(replay.passed).toBe(true);
    expect(replay.run!.stopReason).toBe('final_answer');
  });

  it('names the first divergence and its cause under another configuration', async () => {
    const replay = await replayCassette(EXAMPLE, { cwd: PACKAGE_ROOT, config: 'configs/permissive.json' });
    expect(replay.passed).toBe(false);
    expect(replay.firstDivergence).toMatch(
      /^turn 2, call call_sum1 write_file: verdict "ask:denied" → "allow"; executed false → true/,
    );
    expect(replay.firstDivergence).toContain('permissions.effects.write "ask" → "allow"');
    expect(replay.differences.at(-1)).toMatchObject({
      step: 'stop',
      cause: expect.stringContaining('the replay stops there'),
    });
  });

  it('counterfactual: hands over to scripted turns where the harness leaves the recording', async () => {
    const replay = await replayCassette(EXAMPLE, {
      cwd: PACKAGE_ROOT,
      config: 'configs/permissive.json',
      match: 'counterfactual',
      then: [{ content: 'Wrote summary.txt.' }],
    });
    expect(replay.passed).toBe(true);
    expect(replay.comparison!.handoverAt).toBe(3);
    expect(replay.run!.finalAnswer).toBe('Wrote summary.txt.');
  });

  it('replays an imported cassette too (sequential, divergences are findings)', async () => {
    const replay = await replayCassette('recordings/real/openai-gpt5mini-tool-auto-loop.json', {
      cwd: PACKAGE_ROOT,
    });
    expect(replay.passed).toBe(true);
    expect(replay.differences).toEqual([]);
  });
});
