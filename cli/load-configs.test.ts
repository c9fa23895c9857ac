import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../eval/errors.ts';
import { loadConfigs } from './run-command.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'hb-configs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(path.join(dir, 'strict.json'), JSON.stringify({ permissions: { mode: 'headless' } }));
writeFileSync(path.join(dir, 'a=b.json'), '{}');

describe('loadConfigs', () => {
  it('names a configuration after its file stem, or after name= in -c name=path', () => {
    const configs = loadConfigs(['strict.json', 'tight=strict.json', 'a=b.json'], dir);
    expect(configs.map((c) => c.name)).toEqual(['strict', 'tight', 'a=b']);
    expect(configs[1]!.config.permissions.mode).toBe('headless');
  });

  it('two configurations with one name are bad input', () => {
    expect(() => loadConfigs(['strict.json', 'strict=strict.json'], dir)).toThrow(InputError);
  });

  it('an empty name before "=" is said to be the problem (the file itself exists)', () => {
    try {
      loadConfigs(['=strict.json'], dir);
      expect.unreachable('an empty name was accepted');
    } catch (error) {
      expect((error as InputError).problems[0]).toMatchObject({
        file: '-c =strict.json',
        reason: expect.stringContaining('the name before "=" is empty'),
      });
    }
  });
});
