import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, type InputProblem } from './errors.ts';
import { loadProjectConfig } from './project-config.ts';

/** Writes a project configuration with `extra` lines and loads it: the config, or the problems. */
function load(extra: string): {
  file: string;
  problems?: InputProblem[];
  config?: ReturnType<typeof loadProjectConfig>;
} {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hb-project-')), 'harness-bench.config.yaml');
  writeFileSync(file, `scenarios: [scenarios/]\n${extra}\n`);
  try {
    return { file, config: loadProjectConfig(file) };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { file, problems: error.problems };
  }
}

describe('the project configuration: tolerances and scorers name metrics', () => {
  it('accepts headline metrics and dotted metric paths', () => {
    const { config, problems } = load(
      'scorers: [passRate, tokensPerCase, permissions.needlessAsks]\ntolerances: { tokensPerCase: 100, loop.stopLatency.mean: 1 }',
    );
    expect(problems).toBeUndefined();
    expect(config?.tolerances).toEqual({ tokensPerCase: 100, 'loop.stopLatency.mean': 1 });
    expect(config?.scorers).toEqual(['passRate', 'tokensPerCase', 'permissions.needlessAsks']);
  });

  it('refuses an unknown tolerance name with its path and did-you-mean (the --tolerance rule)', () => {
    const { file, problems } = load('tolerances: { tokens: 100, "a/b": 1, passRate: 0 }');
    expect(problems).toEqual([
      {
        file,
        path: '/tolerances/tokens',
        reason: expect.stringMatching(/^no metric is named "tokens" \(did you mean "tokensPerCase"\?\)/),
      },
      { file, path: '/tolerances/a~1b', reason: expect.stringMatching(/^no metric is named "a\/b"/) },
    ]);
  });

  it('refuses an unknown scorer name with its index and did-you-mean', () => {
    const { file, problems } = load('scorers: [passRate, pasRate, nosuch]');
    expect(problems).toEqual([
      {
        file,
        path: '/scorers/1',
        reason: expect.stringMatching(/^no metric is named "pasRate" \(did you mean "passRate"\?\)/),
      },
      {
        file,
        path: '/scorers/2',
        reason: expect.stringMatching(/^no metric is named "nosuch"; headline metrics/),
      },
    ]);
  });
});
