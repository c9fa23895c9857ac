import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { CONFIG_FILE_SCHEMA } from './config-file-schema.ts';
import { loadConfig, PACKAGE_ROOT } from './config-load.ts';

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
      const value = { baseline: { tolerances: { tokens: tolerance } } };
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
});
