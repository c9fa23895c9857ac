/**
 * Every recording of `recordings/real/` (real traffic of ten public projects, provenance in its
 * SOURCES.md) replays with no error and no hollow pass under each shipped configuration, and
 * *faithfully* under `configs/default.json` and `configs/permissive.json`: every recorded model
 * exchange served, every divergence explained (a decision of the harness or a habit of the
 * recorded client, `explain.ts`). Under `configs/strict.json` an unclassified recorded tool is
 * irreversible and denied with a stop, so the rest of such a recording stays unused, as it should.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCassette } from '../cassette/load.ts';
import { loadConfig } from '../config-load.ts';
import { runRecording } from '../run-recording.ts';
import { REAL_DIR } from './fixtures.test-helpers.ts';

const config = (name: string) =>
  loadConfig(fileURLToPath(new URL(`../../configs/${name}.json`, import.meta.url)));
const files = readdirSync(REAL_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('recordings/real replay', () => {
  it('holds the corpus (at least 50 recordings)', () => {
    expect(files.length).toBeGreaterThanOrEqual(50);
  });

  for (const name of ['default', 'permissive', 'strict'])
    it(`every recording passes under ${name}.json: no error, a recorded response served, nothing invalid${name === 'strict' ? '' : ', faithfully'}`, async () => {
      const base = config(name);
      const unfaithful: string[] = [];
      for (const file of files) {
        const { result, model } = await runRecording(loadCassette(join(REAL_DIR, file)), file, base);
        expect(result.status, `${file}: ${result.firstFailure ?? ''}`).toBe('pass');
        const served = model as { served: number; raised: number };
        expect(served.served + served.raised, file).toBeGreaterThan(0);
        const unexplained = result.divergences.filter((d) => !d.explained);
        if (result.findings!.unusedExchanges > 0 || unexplained.length > 0)
          unfaithful.push(
            `${file}: ${result.findings!.unusedExchanges} unused, ${unexplained.length} unexplained`,
          );
      }
      if (name === 'strict') expect(unfaithful.length).toBeLessThan(files.length / 2);
      else expect(unfaithful).toEqual([]);
    });
});
