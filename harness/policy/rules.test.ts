import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HUMAN_ONLY_RULES, RULES } from './rules.ts';

const doc = readFileSync(new URL('../../docs/policy.md', import.meta.url), 'utf8');

describe('the rule catalogue', () => {
  it('docs/policy.md lists every fixed rule id with its meaning, and marks the human-only ones', () => {
    for (const [id, meaning] of Object.entries(RULES)) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${id}\` |`));
      expect(row, id).toBeDefined();
      expect(row).toContain(meaning.replace(/\|/g, '\\|'));
      expect(row!.includes('(a human only)'), id).toBe(HUMAN_ONLY_RULES.has(id));
    }
  });

  it('human-only rules are catalogued ids', () => {
    for (const id of HUMAN_ONLY_RULES) expect(Object.keys(RULES)).toContain(id);
  });
});
