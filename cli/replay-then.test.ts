/**
 * `replay --match counterfactual --then FILE` through the CLI: a file whose turns are not
 * scripted turns is exit 2 naming the file, the JSON path and the reason, where the replay
 * would otherwise hand over to it (the example cassette diverges under `permissive`).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../eval/config-load.ts';
import { cli, put, tempDir } from './cli.test-helpers.ts';

const example = 'recordings/examples/stub-read-then-write-asked.json';
const replay = (then: string) =>
  cli(PACKAGE_ROOT, [
    'replay',
    example,
    '-c',
    'configs/permissive.json',
    '--match',
    'counterfactual',
    '--then',
    then,
  ]);

describe('replay --then', () => {
  it('refuses turns of the wrong shape with exit 2, file, path and reason, and replays nothing', async () => {
    const dir = tempDir('hb-replay-then-');
    put(dir, {
      'bogus.json': [{ bogus: 1 }],
      'args.json': [{ content: 'Wrote it.', arguments: 5 }],
    });
    const bogus = await replay(path.join(dir, 'bogus.json'));
    expect(bogus.code).toBe(2);
    expect(bogus.err).toContain(`${path.join(dir, 'bogus.json')}: /0/bogus: unknown key "bogus"`);
    expect(bogus.out).not.toContain('PASS');
    const args = await replay(path.join(dir, 'args.json'));
    expect(args.code).toBe(2);
    expect(args.err).toContain(`${path.join(dir, 'args.json')}: /0/arguments: unknown key "arguments"`);
  });
});
