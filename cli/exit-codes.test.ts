/** The exit codes are one table: `--help` of every command and the README say the same. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../eval/config-load.ts';
import { cli, tempDir } from './cli.test-helpers.ts';
import { EXIT_CODES } from './errors.ts';

describe('exit codes', () => {
  it('every command documents each code in --help, and the README names the same codes', async () => {
    const readme = readFileSync(path.join(PACKAGE_ROOT, 'README.md'), 'utf8');
    for (const command of ['run', 'validate', 'init', 'replay', 'import', 'export', 'merge', 'fuzz']) {
      const help = (await cli(tempDir(), [command, '--help'])).out;
      for (const code of Object.values(EXIT_CODES))
        expect(help, command).toMatch(new RegExp(`^ +${code}  \\S`, 'm'));
      expect(help).toMatch(/^ +1 +a case failed or errored$/m);
      expect(help).toMatch(/^ +3 +internal error: a bug in harness-bench/m);
    }
    expect(readme).toMatch(/\*\*1\*\*\s+a\s+case\s+failed\s+or\s+errored/);
    expect(readme).toMatch(/\*\*2\*\*\s+bad\s+input/);
    expect(readme).toMatch(/\*\*3\*\*\s+an\s+internal\s+error/);
    expect(readme).toMatch(/\*\*4\*\*\s+the\s+environment/);
  });
});
