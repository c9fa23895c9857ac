import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { InputError } from '../errors.ts';
import { loadCassette, migrateCassette, parseCassette, saveCassette, validateCassette } from './load.ts';
import type { Cassette } from './types.ts';

const REAL = fileURLToPath(new URL('../../recordings/real/', import.meta.url));

// A small valid cassette: one JSON exchange, one streamed exchange.
function tinyCassette(): Cassette {
  return {
    format: 'harness-bench.cassette',
    version: 1,
    meta: {
      id: 'tiny',
      title: 'tiny',
      recordedAt: '2026-01-01T00:00:00.000Z',
      host: 'api.example',
      modelRequested: 'm',
      modelServed: 'm-1',
      task: 'say hi',
      toolSchemasHash: 'a'.repeat(64),
      responseOnly: false,
    },
    deps: { clock: [1], randomSeed: 1 },
    exchanges: [
      {
        request: {
          method: 'POST',
          path: '/v1/chat/completions',
          body: { model: 'm', messages: [{ role: 'user', content: 'say hi' }] },
        },
        response: {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: { choices: [{ message: { content: 'hi' } }] },
        },
      },
      {
        request: { method: 'POST', path: '/v1/chat/completions', body: null },
        response: { status: 200, headers: {}, events: [{ data: '{}', delayMs: 3 }, { data: '[DONE]' }] },
      },
    ],
  };
}

function problems(fn: () => unknown): { file: string; path: string; reason: string }[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).problems;
  }
  throw new Error('expected an InputError');
}

describe('loadCassette / saveCassette', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('round-trips a cassette as pretty JSON with a trailing newline, leaving no temp file', () => {
    dir = mkdtempSync(join(tmpdir(), 'cassette-'));
    const file = join(dir, 'sub', 'tiny.json');
    saveCassette(file, tinyCassette());
    const text = readFileSync(file, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "format": "harness-bench.cassette",');
    expect(readdirSync(join(dir, 'sub'))).toEqual(['tiny.json']);
    expect(loadCassette(file)).toEqual(tinyCassette());
  });

  it('refuses to save an invalid cassette and writes nothing', () => {
    dir = mkdtempSync(join(tmpdir(), 'cassette-'));
    const file = join(dir, 'bad.json');
    const bad = { ...tinyCassette(), exchanges: 'nope' } as unknown as Cassette;
    expect(problems(() => saveCassette(file, bad))).toEqual([
      { file, path: '/exchanges', reason: 'must be array' },
    ]);
    expect(existsSync(file)).toBe(false);
  });

  it('reports an unreadable file with its name', () => {
    const [problem] = problems(() => loadCassette('/nonexistent/x.json'));
    expect(problem).toMatchObject({ file: '/nonexistent/x.json', path: '' });
    expect(problem!.reason).toMatch(/cannot read/);
  });

  it('rejects text that is not JSON', () => {
    const [problem] = problems(() => parseCassette('{"format": ', 'broken.json'));
    expect(problem).toMatchObject({ file: 'broken.json', path: '' });
    expect(problem!.reason).toMatch(/^JSON syntax error: unexpected end of input at line 1, column 12/);
  });

  it('rejects a foreign file by its format', () => {
    const [problem] = problems(() => parseCassette('{"interactions": []}', 'vcr.json'));
    expect(problem).toMatchObject({ file: 'vcr.json', path: '/format' });
    expect(problem!.reason).toMatch(/^not a cassette: .*import/);
  });

  it('rejects version 0 (no migration step) and version 2 (newer) with a message', () => {
    const v0 = problems(() => parseCassette(JSON.stringify({ ...tinyCassette(), version: 0 }), 'old.json'));
    expect(v0).toHaveLength(1);
    expect(v0[0]).toMatchObject({ file: 'old.json', path: '/version' });
    expect(v0[0]!.reason).toMatch(/version 0 is not supported: there is no migration step/);
    const v2 = problems(() => parseCassette(JSON.stringify({ ...tinyCassette(), version: 2 }), 'new.json'));
    expect(v2[0]).toMatchObject({ file: 'new.json', path: '/version' });
    expect(v2[0]!.reason).toMatch(/newer than this build reads/);
    const vs = problems(() => parseCassette(JSON.stringify({ ...tinyCassette(), version: '1' }), 's.json'));
    expect(vs[0]!.path).toBe('/version');
  });

  it('names a missing field by its path, and reports every problem', () => {
    const cassette = tinyCassette() as unknown as {
      meta: Record<string, unknown>;
      exchanges: { response: Record<string, unknown> }[];
    };
    delete cassette.meta.task;
    cassette.exchanges[0]!.response.status = 'ok';
    cassette.exchanges[1]!.response.body = {};
    const found = problems(() => parseCassette(JSON.stringify(cassette), 'c.json'));
    expect(found).toContainEqual({ file: 'c.json', path: '/meta/task', reason: 'is required' });
    expect(found).toContainEqual({
      file: 'c.json',
      path: '/exchanges/0/response/status',
      reason: 'must be integer',
    });
    expect(found.find((p) => p.path === '/exchanges/1/response')?.reason).toMatch(/both "body" and "events"/);
  });

  it('flags unknown keys as probable typos', () => {
    const found = problems(() =>
      parseCassette(JSON.stringify({ ...tinyCassette(), exchangs: [] }), 't.json'),
    );
    expect(found[0]!.reason).toMatch(/unknown key "exchangs"/);
  });

  it('migrates by named steps', () => {
    const step = {
      from: 0,
      name: 'v0-to-v1: rename interactions',
      up: (doc: Record<string, unknown>) => ({ ...doc, exchanges: doc.interactions }),
    };
    const { doc, applied } = migrateCassette({ version: 0, interactions: [] }, 'x.json', [step]);
    expect(applied).toEqual(['v0-to-v1: rename interactions']);
    expect(doc).toMatchObject({ version: 1, exchanges: [] });
  });

  it('loads every committed real recording', () => {
    const files = readdirSync(REAL).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(50);
    for (const file of files) {
      const cassette = loadCassette(join(REAL, file));
      expect(cassette.meta.id).toBe(file.replace(/\.json$/, ''));
      expect(cassette.meta.source?.license).toMatch(/^(MIT|Apache-2\.0)$/);
      expect(validateCassette(cassette, file)).toEqual([]);
    }
  });

  it('keeps a saved file intact when the cassette is re-saved over it', () => {
    dir = mkdtempSync(join(tmpdir(), 'cassette-'));
    const file = join(dir, 'c.json');
    writeFileSync(file, 'old');
    saveCassette(file, tinyCassette());
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(tinyCassette());
  });
});
