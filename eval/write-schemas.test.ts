import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './config-load.ts';
import { SCHEMA_FILES, schemaText } from './write-schemas.ts';

describe('checked-in JSON Schemas', () => {
  for (const [file, schema] of Object.entries(SCHEMA_FILES)) {
    it(`${file} is up to date (npm run schemas)`, () => {
      expect(readFileSync(path.join(PACKAGE_ROOT, file), 'utf8')).toBe(schemaText(schema));
    });
  }
});
