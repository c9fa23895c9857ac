import { describe, expect, it } from 'vitest';
import { LoopDetector } from './loop-detector.ts';

/** Runs `key` through check (and record, when the call runs) and returns the verdict kinds. */
function play(detector: LoopDetector, calls: [key: string, outcome: string, ok?: boolean][]): string[] {
  return calls.map(([key, outcome, ok = true]) => {
    const verdict = detector.check(key);
    if (verdict.kind === 'run') detector.record(key, ok, outcome);
    return verdict.kind === 'run' ? 'run' : `${verdict.kind}:${verdict.count}`;
  });
}

describe('LoopDetector', () => {
  it('runs the first warnAt-1 identical calls, warns at warnAt and stops at stopAt', () => {
    const detector = new LoopDetector({ warnAt: 4, stopAt: 5 });
    expect(
      play(
        detector,
        Array.from({ length: 6 }, () => ['bash\0{"command":"cat notes.txt"}', 'hello'] as [string, string]),
      ),
    ).toEqual(['run', 'run', 'run', 'warn:4', 'stop:5', 'stop:6']);
  });

  it('honours other thresholds', () => {
    const detector = new LoopDetector({ warnAt: 2, stopAt: 3 });
    expect(
      play(detector, [
        ['k', 'o'],
        ['k', 'o'],
        ['k', 'o'],
      ]),
    ).toEqual(['run', 'warn:2', 'stop:3']);
  });

  it('a changed outcome is progress and resets the count (polling does not trip it)', () => {
    const detector = new LoopDetector({ warnAt: 3, stopAt: 4 });
    const polls: [string, string][] = [
      ['status', 'pending 1'],
      ['status', 'pending 2'],
      ['status', 'pending 3'],
      ['status', 'pending 4'],
      ['status', 'pending 5'],
      ['status', 'pending 6'],
    ];
    expect(play(detector, polls)).toEqual(['run', 'run', 'run', 'run', 'run', 'run']);
    expect(
      play(detector, [
        ['status', 'pending 6'],
        ['status', 'pending 6'],
      ]),
    ).toEqual(['run', 'warn:3']);
  });

  it('a success and a failure with the same text are different outcomes', () => {
    const detector = new LoopDetector({ warnAt: 3, stopAt: 4 });
    expect(
      play(detector, [
        ['k', 'timeout:slow', true],
        ['k', 'timeout:slow', false],
        ['k', 'timeout:slow', true],
        ['k', 'timeout:slow', false],
      ]),
    ).toEqual(['run', 'run', 'run', 'run']);
    expect(
      play(detector, [
        ['k', 'timeout:slow', false],
        ['k', 'timeout:slow', false],
      ]),
    ).toEqual(['run', 'warn:3']);
  });

  it('counts per key: A-B-A-B interleaving still reaches the limits for each key', () => {
    const detector = new LoopDetector({ warnAt: 3, stopAt: 4 });
    const ab: [string, string][] = [];
    for (let i = 0; i < 4; i += 1) ab.push(['A', 'a'], ['B', 'b']);
    expect(play(detector, ab)).toEqual(['run', 'run', 'run', 'run', 'warn:3', 'warn:3', 'stop:4', 'stop:4']);
  });

  it('different keys do not share a count', () => {
    const detector = new LoopDetector({ warnAt: 2, stopAt: 3 });
    expect(
      play(detector, [
        ['A', 'x'],
        ['B', 'x'],
        ['C', 'x'],
      ]),
    ).toEqual(['run', 'run', 'run']);
  });

  it('record for a key never checked is ignored', () => {
    const detector = new LoopDetector({ warnAt: 2, stopAt: 3 });
    detector.record('never', true, 'x');
    expect(detector.check('never')).toEqual({ kind: 'run' });
  });
});
