import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { glob } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../config-load.ts';
import { EDITOR_SCENARIO_SCHEMA } from './editor-schema.ts';

const validate = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true }).compile(
  EDITOR_SCENARIO_SCHEMA,
);

describe('the scenario schema editors use (scenarios/schema/scenario.schema.json)', () => {
  it('accepts every bundled scenario, the nulls of their expectFor blocks included', async () => {
    const files = await glob(['scenarios/**/*.{yaml,json}'], {
      cwd: PACKAGE_ROOT,
      ignore: ['scenarios/schema/**'],
    });
    expect(files.length).toBeGreaterThan(200);
    let nulls = 0;
    for (const file of files) {
      const text = readFileSync(path.join(PACKAGE_ROOT, file), 'utf8');
      const value = file.endsWith('.json') ? JSON.parse(text) : parse(text);
      if (JSON.stringify(value.expectFor ?? {}).includes('null')) nulls += 1;
      expect(validate(value), `${file}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
    }
    expect(nulls).toBeGreaterThan(10);
  });

  it('still refuses an unknown key or a wrong type in a block', () => {
    const base = {
      id: 'a/b',
      task: 't',
      model: [{ content: 'done' }],
      expect: { stopReason: 'final_answer' },
    };
    expect(validate({ ...base, expectFor: { strict: { modelCalls: null } } })).toBe(true);
    expect(validate({ ...base, expectFor: { strict: { modelCals: 1 } } })).toBe(false);
    expect(validate({ ...base, expectFor: { strict: { results: { c: { ok: 'yes' } } } } })).toBe(false);
    expect(validate({ ...base, expect: { stopReason: 'final_answer', modelCalls: null } })).toBe(false);
  });
});
