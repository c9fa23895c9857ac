/**
 * The checked-in JSON Schemas, generated from the TypeScript sources that own them:
 * `scenarios/schema/{scenario,config,cassette,results}.schema.json`. `npm run schemas` rewrites
 * them; `schemas.test.ts` fails when one is stale.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CASSETTE_SCHEMA } from './cassette/schema.ts';
import { CONFIG_FILE_SCHEMA } from './config-file-schema.ts';
import { PACKAGE_ROOT } from './config-load.ts';
import { RESULTS_SCHEMA } from './results-schema.ts';
import { EDITOR_SCENARIO_SCHEMA } from './scenario/editor-schema.ts';

/** Schema file (relative to the package root) → schema object. */
export const SCHEMA_FILES: Record<string, unknown> = {
  'scenarios/schema/scenario.schema.json': EDITOR_SCENARIO_SCHEMA,
  'scenarios/schema/config.schema.json': CONFIG_FILE_SCHEMA,
  'scenarios/schema/cassette.schema.json': CASSETTE_SCHEMA,
  'scenarios/schema/results.schema.json': RESULTS_SCHEMA,
};

/** The exact text a schema file holds. */
export function schemaText(schema: unknown): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [file, schema] of Object.entries(SCHEMA_FILES)) {
    writeFileSync(path.join(PACKAGE_ROOT, file), schemaText(schema));
    console.log(`wrote ${file}`);
  }
}
