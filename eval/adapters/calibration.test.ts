import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadScenarioFiles } from '../suite.ts';
import { calibrate, calibrationMarkdown, KNOWN_DISAGREEMENTS, MIN_AGREEMENT } from './calibration.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('calibration: our harness served through the endpoint agrees with the in-process verdict', () => {
  it(`agrees on at least ${MIN_AGREEMENT * 100}% of the cases both score, and every disagreement is explained`, async () => {
    const scenarios = await loadScenarioFiles(['scenarios'], ROOT);
    const result = await calibrate(scenarios);
    const unexplained = result.disagreements.filter((d) => !Object.hasOwn(KNOWN_DISAGREEMENTS, d.id));
    expect(unexplained, calibrationMarkdown(result)).toEqual([]);
    expect(result.joint).toBeGreaterThan(50);
    expect(result.agreement, calibrationMarkdown(result)).toBeGreaterThanOrEqual(MIN_AGREEMENT);
  }, 180_000);

  it('lists each disagreement with its reason in the table', () => {
    const md = calibrationMarkdown({
      rows: [],
      joint: 2,
      agreeing: 1,
      agreement: 0.5,
      disagreements: [
        { id: 'budget/wall-time', inProcess: 'pass', served: 'fail' },
        { id: 'x/y', inProcess: 'pass', served: 'fail', servedNote: 'stopReason: …' },
      ],
    });
    expect(md).toContain('**50.0%**');
    expect(md).toContain('| `budget/wall-time` | pass | fail | a 1 ms wall budget');
    expect(md).toContain('| `x/y` | pass | fail | not explained yet: stopReason: … |');
  });
});
