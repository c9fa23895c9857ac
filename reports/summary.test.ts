import { describe, expect, it } from 'vitest';
import type { ResultsFile } from '../eval/results.ts';
import { reproduceCommand } from './summary.ts';

const results = (harness?: ResultsFile['harness']) =>
  ({
    configs: [{ name: 'default', file: 'configs/default.json' }],
    ...(harness ? { harness } : {}),
  }) as unknown as ResultsFile;

describe('reproduceCommand', () => {
  it('runs the case under its configuration', () => {
    expect(reproduceCommand(results(), { id: 'bad-json/x', config: 'default' })).toBe(
      'npx harness-bench run --filter bad-json/x -c configs/default.json --verbose',
    );
  });

  it('carries --harness for an adapter run (without it the command would run our harness)', () => {
    const adapter = results({ name: 'my loop', kind: 'command', file: 'adapters/my loop.json' });
    expect(reproduceCommand(adapter, { id: 'bad-json/x', config: 'default' })).toBe(
      "npx harness-bench run --filter bad-json/x -c configs/default.json --harness 'adapters/my loop.json' --verbose",
    );
    expect(
      reproduceCommand(results({ name: 'ours', kind: 'ours' }), { id: 'a', config: 'default' }),
    ).not.toContain('--harness');
  });
});
