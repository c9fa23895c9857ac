/**
 * The importers in the main job: a recording of `recordings/real/` whose source file is kept in
 * `recordings/real/sources/` (its `manifest.yaml`) is re-imported from it when the recording is
 * replayed, and the case gets an `import.roundTrip` check: the cassette the importer makes now must
 * equal the committed one. A change in an importer that alters what a real recording becomes fails
 * that recording's case in `npm start`, not only a unit test.
 */
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Cassette } from '../cassette/types.ts';
import { makeCheck, type Check } from '../expect/check.ts';
import { diffJson, formatDivergence } from '../replay/request-diff.ts';
import {
  importRealRecording,
  loadManifest,
  REAL_DIR,
  REAL_SOURCES_DIR,
  type RealRecording,
} from './import-real.ts';

let manifest: Map<string, RealRecording> | undefined;

function byId(): Map<string, RealRecording> {
  if (!manifest) {
    manifest = new Map();
    try {
      for (const recording of loadManifest(REAL_SOURCES_DIR))
        manifest.set(recording.file.split('.')[0]!, recording);
    } catch {
      // No sources kept (an installed package without them): no round trip to check.
    }
  }
  return manifest;
}

/**
 * The round-trip check of `cassette` loaded from `file`, or `undefined` when it is not a real
 * recording with a kept source. Never throws: an importer that throws fails the check.
 */
export function roundTripCheck(cassette: Cassette, file: string): Check | undefined {
  if (path.resolve(path.dirname(file)) !== path.resolve(REAL_DIR)) return undefined;
  const recording = byId().get(cassette.meta.id);
  if (!recording) return undefined;
  const source = `recordings/real/sources/${recording.file}`;
  let again: Cassette;
  try {
    again = importRealRecording(recording).cassette;
  } catch (error) {
    return makeCheck(
      'import.roundTrip',
      false,
      'the committed cassette',
      'an import error',
      `re-importing ${source} threw: ${(error as Error).message}`,
    );
  }
  const committed = JSON.parse(JSON.stringify(cassette)) as unknown;
  const now = JSON.parse(JSON.stringify(again)) as unknown;
  if (isDeepStrictEqual(committed, now))
    return makeCheck(
      'import.roundTrip',
      true,
      'the committed cassette',
      'the same',
      `re-importing ${source} gives the committed cassette`,
    );
  const first = diffJson(committed, now, 0, 1)[0];
  return makeCheck(
    'import.roundTrip',
    false,
    'the committed cassette',
    'a different cassette',
    `re-importing ${source} gives another cassette: ${first ? formatDivergence(first).replace(': recorded ', ': committed ').replace(', replayed ', ', now ') : 'they differ'}`,
  );
}
