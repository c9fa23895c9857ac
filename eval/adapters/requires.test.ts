import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessBenchError } from '../../harness/errors.ts';
import { loadAdapterFile } from './load.ts';
import { assertLaunchable } from './requires.ts';

function adapter(value: object) {
  const dir = mkdtempSync(path.join(tmpdir(), 'hb-requires-'));
  writeFileSync(path.join(dir, 'a.json'), JSON.stringify(value));
  return loadAdapterFile(path.join(dir, 'a.json'));
}

describe('assertLaunchable', () => {
  it('refuses a command adapter whose program is not on PATH: environment (exit 4), naming the command', () => {
    const ghost = adapter({ name: 'ghost', kind: 'command', command: ['no-such-harness-binary-hb', 'x'] });
    let thrown: unknown;
    try {
      assertLaunchable(ghost);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HarnessBenchError);
    expect(thrown).toMatchObject({ code: 'ADAPTER_COMMAND_MISSING', fault: 'environment' });
    expect((thrown as Error).message).toMatch(/"no-such-harness-binary-hb x".*not on PATH/);
  });

  it('accepts a program on PATH, a module adapter, and a program listed in requires (skipped per case instead)', () => {
    expect(() =>
      assertLaunchable(adapter({ name: 'n', kind: 'command', command: ['node', '-e', '1'] })),
    ).not.toThrow();
    expect(() =>
      assertLaunchable(
        adapter({
          name: 'r',
          kind: 'command',
          command: ['no-such-hb'],
          requires: ['no-such-hb'],
          install: 'get it',
        }),
      ),
    ).not.toThrow();
  });
});
