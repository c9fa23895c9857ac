/**
 * Inline interpreter programs as a property: whatever language, read call and quoting, a program
 * whose text names a path outside the workspace (absolute, `../`, `~/`) is denied under the
 * permissive configuration (auto mode, everything allowed), and one that names only workspace
 * paths is not denied for its paths.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type HarnessConfig, mergeConfig, type PartialConfig } from '../config.ts';
import { decideCommand } from './command-policy.ts';

let permissive: HarnessConfig;
beforeAll(() => {
  const file = path.join(import.meta.dirname, '..', '..', 'configs', 'permissive.json');
  permissive = mergeConfig(DEFAULT_CONFIG, JSON.parse(readFileSync(file, 'utf8')) as PartialConfig);
});

const segment = fc.stringMatching(/^[a-z][a-z0-9_.-]{0,7}$/).filter((s) => s !== '.' && !s.includes('..'));
const outside = fc.oneof(
  fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => `/${s.join('/')}`),
  fc.array(segment, { minLength: 1, maxLength: 2 }).map((s) => `../${s.join('/')}`),
  fc.array(segment, { minLength: 1, maxLength: 2 }).map((s) => `~/${s.join('/')}`),
);
const inside = fc.array(segment, { minLength: 2, maxLength: 3 }).map((s) => s.join('/'));
/** A program reading `p` in one of the interpreters, quoted for bash in single quotes. */
const program = fc.constantFrom(
  (p: string) => `python3 -c 'print(open("${p}").read())'`,
  (p: string) => `python3 -c 'import pathlib; pathlib.Path("${p}").write_text("x")'`,
  (p: string) => `node -e 'require("fs").readFileSync("${p}")'`,
  (p: string) => `node -p 'require("fs").statSync("${p}").size'`,
  (p: string) => `perl -e 'open(F, "<", "${p}"); print <F>'`,
  (p: string) => `ruby -e 'puts File.read("${p}")'`,
  (p: string) => `php -r 'echo file_get_contents("${p}");'`,
);

describe('inline programs (property)', () => {
  it('a path outside the workspace named in an inline program is denied, permissive included', async () => {
    await fc.assert(
      fc.asyncProperty(program, outside, async (make, p) => {
        const d = await decideCommand(make(p), permissive, { home: '/home/someone' });
        expect(d.action).toBe('deny');
      }),
      { numRuns: 150 },
    );
  });

  it('an inline program naming only workspace paths is not denied for them', async () => {
    await fc.assert(
      fc.asyncProperty(program, inside, async (make, p) => {
        const d = await decideCommand(make(p), permissive, { home: '/home/someone' });
        expect(d.action).not.toBe('deny');
      }),
      { numRuns: 150 },
    );
  });
});
