/**
 * The committed real-recording corpus (`recordings/real/`): every source file in
 * `recordings/real/sources/` re-imports to exactly the committed cassette (the golden files of
 * every importer format), provenance and licences are complete, and no cassette is hollow.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCassette } from '../cassette/load.ts';
import { isChatCompletionsPath } from './classify.ts';
import { HEADER_ALLOWLIST } from './common.ts';
import {
  REAL_DIR,
  REAL_SOURCES_DIR,
  importRealRecording,
  loadManifest,
  sourceDigests,
  sourcesTable,
  withSourcesTable,
} from './import-real.ts';
import type { Cassette } from '../cassette/types.ts';

const manifest = loadManifest();
const LICENCES = new Set(['MIT', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause']);

describe('recordings/real corpus', () => {
  it('holds at least 50 recordings from at least 10 projects, under MIT, Apache-2.0 or BSD only', () => {
    expect(manifest.length).toBeGreaterThanOrEqual(50);
    expect(new Set(manifest.map((r) => r.source.repository)).size).toBeGreaterThanOrEqual(10);
    for (const r of manifest) expect(LICENCES, r.file).toContain(r.source.license);
  });

  it('has one manifest entry per source file and one cassette per entry, nothing else', () => {
    const sources = readdirSync(REAL_SOURCES_DIR).filter((f) => f !== 'manifest.yaml' && f !== 'SHA256SUMS');
    expect(sources.sort()).toEqual(manifest.map((r) => r.file).sort());
    const cassettes = readdirSync(REAL_DIR).filter((f) => f.endsWith('.json'));
    expect(cassettes.length).toBe(manifest.length);
  });

  it('SHA256SUMS matches the source files (a changed source needs a re-import)', () => {
    expect(readFileSync(join(REAL_SOURCES_DIR, 'SHA256SUMS'), 'utf8')).toBe(sourceDigests());
  });

  it('covers every importer format', () => {
    const formats = new Set(manifest.map((r) => importRealRecording(r).format));
    expect([...formats].sort()).toEqual(
      [
        'azure-test-proxy',
        'chunk-log',
        'go-vcr-yaml',
        'har',
        'httprr',
        'ruby-vcr-yaml',
        'sse',
        'vcr-yaml',
        'vcr-yaml-parsed-body',
        'wiremock',
      ].sort(),
    );
  });
});

describe('re-importing recordings/real/sources gives the committed files', () => {
  const committed = new Map<string, Cassette>();
  for (const recording of manifest) {
    it(recording.file, () => {
      const { cassette } = importRealRecording(recording);
      const file = join(REAL_DIR, `${cassette.meta.id}.json`);
      const saved = loadCassette(file);
      committed.set(recording.file, saved);
      expect(cassette).toEqual(saved);
      expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(cassette, null, 2)}\n`);
      expect(saved.meta.source).toEqual(recording.source);
    });
  }

  it('SOURCES.md carries the generated table of exactly these recordings', () => {
    const cassettes = new Map(manifest.map((r) => [r.file, importRealRecording(r).cassette]));
    const markdown = readFileSync(join(REAL_DIR, 'SOURCES.md'), 'utf8');
    expect(markdown).toBe(withSourcesTable(markdown, sourcesTable(manifest, cassettes)));
  });
});

describe('every committed real cassette', () => {
  const files = readdirSync(REAL_DIR).filter((f) => f.endsWith('.json'));
  for (const name of files) {
    it(`${name}: model exchanges only, allowlisted headers, metadata from model traffic`, () => {
      const cassette = loadCassette(join(REAL_DIR, name));
      expect(cassette.exchanges.length).toBeGreaterThan(0);
      for (const exchange of cassette.exchanges) {
        expect(exchange.request.method).toBe('POST');
        expect(isChatCompletionsPath(exchange.request.path)).toBe(true);
        if (!cassette.meta.responseOnly) expect(Array.isArray(exchange.request.body?.messages)).toBe(true);
        for (const header of Object.keys(exchange.response.headers))
          expect(HEADER_ALLOWLIST.some((pattern) => pattern.test(header))).toBe(true);
        if (exchange.response.events) expect(exchange.response.events.length).toBeGreaterThan(0);
      }
      for (const other of cassette.nonModel ?? [])
        expect(other.url).not.toMatch(/[?&](key|api_key|token)=(?!REDACTED)/i);
      const first = cassette.exchanges[0]!.request.body;
      expect(cassette.meta.modelRequested).toBe(
        first ? ((first.model as string | undefined) ?? cassette.meta.modelRequested) : null,
      );
    });
  }
});
