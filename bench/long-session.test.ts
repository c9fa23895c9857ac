import { describe, expect, it } from 'vitest';
import { NAIVE, runLongSession, type LongSessionResult } from './long-session.ts';

/** Total tokens of the whole run divided by the total at half of it: 2 is linear growth, 4 quadratic. */
const growth = (r: LongSessionResult) =>
  r.totalTokens / r.curve[Math.floor(r.curve.length / 2) - 1]!.totalTokens;

describe('a long scripted session (the figures of the long-session benchmark, shorter; tokens only, no timing)', () => {
  it('with the layers, every prompt stays under the window and the total grows linearly; naive, it grows with the square', async () => {
    const window = 16_000;
    const layered = await runLongSession(240, { context: { windowTokens: window } });
    const summaries = await runLongSession(240, {
      context: { windowTokens: window, layers: { stub: false } },
    });
    const naive = await runLongSession(240, NAIVE);
    for (const r of [layered, summaries, naive]) expect(r.stopReason).toBe('final_answer');
    expect(layered.maxPromptTokens).toBeLessThanOrEqual(window);
    expect(summaries.maxPromptTokens).toBeLessThanOrEqual(window * 0.8);
    expect(layered.compactions.stub).toBeGreaterThan(0);
    expect(summaries.compactions.summary).toBeGreaterThan(5);
    expect(naive.maxPromptTokens).toBeGreaterThan(10 * window);
    expect(growth(layered)).toBeGreaterThan(1.7);
    expect(growth(layered)).toBeLessThan(2.4);
    expect(growth(summaries)).toBeLessThan(2.4);
    expect(growth(naive)).toBeGreaterThan(3.3);
    expect(naive.totalTokens).toBeGreaterThan(10 * layered.totalTokens);
  });
});
