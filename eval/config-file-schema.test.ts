import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { CONFIG_FILE_SCHEMA } from './config-file-schema.ts';
import { loadConfig, PACKAGE_ROOT } from './config-load.ts';
import { InputError } from './errors.ts';

const validate = new Ajv({ allErrors: true, strict: false }).compile(CONFIG_FILE_SCHEMA);

describe('the configuration file schema (scenarios/schema/config.schema.json)', () => {
  it('accepts every shipped configuration', () => {
    const dir = path.join(PACKAGE_ROOT, 'configs');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const ok = validate(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
      expect(ok, `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('has the bench keys the loader accepts: baseline tolerances, scorers, sandbox "unavailable"', () => {
    const file = {
      baseline: { tolerances: { costUsd: 0.01, tokens: '5%', 'metrics.asr': '0' } },
      scorers: { mine: './mine.ts' },
      sandbox: 'unavailable',
    };
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ baseline: { tolerances: { tokens: '-5%' } } })).toBe(false);
    expect(validate({ baseline: { tolerance: {} } })).toBe(false);
    expect(validate({ sandbox: 'off' })).toBe(false);
  });

  it('agrees with the loader on tolerances', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hb-config-schema-'));
    for (const [tolerance, accepted] of [
      [0.5, true],
      ['5%', true],
      [' 2 ', true],
      [-1, false],
      ['5 %x', false],
    ] as const) {
      const file = path.join(dir, 'c.json');
      const value = { baseline: { tolerances: { tokensPerCase: tolerance } } };
      writeFileSync(file, JSON.stringify(value));
      const loads = (() => {
        try {
          loadConfig(file);
          return true;
        } catch {
          return false;
        }
      })();
      expect([JSON.stringify(tolerance), loads]).toEqual([JSON.stringify(tolerance), accepted]);
      expect([JSON.stringify(tolerance), validate(value)]).toEqual([JSON.stringify(tolerance), accepted]);
    }
  });

  it('refuses a tolerance that names no metric, as --tolerance does, with path and did-you-mean', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hb-config-schema-'));
    const file = path.join(dir, 'c.json');
    writeFileSync(
      file,
      JSON.stringify({
        baseline: { tolerances: { tokensPerCase: 1, tokens: 100, 'permissions.needlessAsks': 0 } },
      }),
    );
    expect(() => loadConfig(file)).toThrow(InputError);
    try {
      loadConfig(file);
    } catch (error) {
      expect((error as InputError).problems).toEqual([
        {
          file,
          path: '/baseline/tolerances/tokens',
          reason: expect.stringMatching(/^no metric is named "tokens" \(did you mean "tokensPerCase"\?\)/),
        },
      ]);
    }
  });
});
