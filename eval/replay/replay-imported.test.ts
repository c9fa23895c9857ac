import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config-load.ts';
import { cassetteOf, completion, exchange } from './fixtures.test-helpers.ts';
import { replayImported } from './replay-imported.ts';

const config = loadConfig().config;
const user = (content: string) => ({ role: 'user', content });

describe('replayImported: the case stop reason comes from every conversation', () => {
  it('a first conversation refused by a content filter shows, though a later one answered', async () => {
    const cassette = cassetteOf([
      exchange([user('first question')], completion({ content: null, refusal: 'I cannot help with that.' })),
      exchange([user('another question')], completion({ content: 'Here is the answer.' })),
    ]);
    const replay = await replayImported(cassette, config);
    expect(replay.runs.map((r) => r.stopReason)).toEqual(['content_filter', 'final_answer']);
    expect(replay.run.stopReason).toBe('content_filter');
    expect(replay.run.stopDetail).toMatch(
      /^run 1 of 2 \(conversation 1\) ended content_filter.*; the main conversation ended final_answer$/,
    );
    expect(replay.run.finalAnswer).toBe('Here is the answer.');
  });

  it('conversations that all end plainly keep the main conversation stop reason', async () => {
    const cassette = cassetteOf([
      exchange([user('first question')], completion({ content: 'one' })),
      exchange([user('another question')], completion({ content: 'two' })),
    ]);
    const replay = await replayImported(cassette, config);
    expect(replay.run.stopReason).toBe('final_answer');
    expect(replay.run.stopDetail).toBeUndefined();
    // Each run's turns follow the previous run's, in the events as in the ledger: `show` puts
    // each conversation's text under its own turn.
    const ends = replay.run.events.filter((e) => e.type === 'model_call_end');
    expect(ends.map((e) => [e.turn, 'content' in e ? e.content : undefined])).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
    expect(replay.run.ledger.turns.map((t) => t.turn)).toEqual([1, 2]);
  });
});
