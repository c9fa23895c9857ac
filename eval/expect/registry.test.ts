import { describe, expect, it } from 'vitest';
import { SCENARIO_SCHEMA } from '../scenario/schema.ts';
import { EXPECTATION_KEYS, HANDLERS } from './registry.ts';

describe('HANDLERS', () => {
  it('has one handler for every key of the expect schema, and no other', () => {
    const schemaKeys = Object.keys(SCENARIO_SCHEMA.definitions.expectations.properties);
    expect([...EXPECTATION_KEYS].sort()).toEqual([...schemaKeys].sort());
    for (const key of EXPECTATION_KEYS) expect(typeof HANDLERS[key]).toBe('function');
  });

  it('reports the required stopReason first and the always-checked transcript last', () => {
    expect(EXPECTATION_KEYS[0]).toBe('stopReason');
    expect(EXPECTATION_KEYS.at(-1)).toBe('transcript');
  });
});
