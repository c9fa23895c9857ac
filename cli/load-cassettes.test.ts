/**
 * How `run` and `replay` take recordings: a folder or glob over a recordings folder skips
 * non-cassette files (SOURCES.md, source recordings, results files); a file named explicitly
 * must be a cassette (exit 2, "not a cassette", and the import command for foreign recordings).
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from './io.ts';
import { main } from './main.ts';
import { InputError } from '../eval/errors.ts';
import { REAL_DIR, REAL_SOURCES_DIR } from '../eval/import/import-real.ts';
import { loadCassettes } from '../eval/suite.ts';

function recordingsFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hb-recordings-'));
  copyFileSync(path.join(REAL_DIR, 'rubyopenai-groq-llama3-stream.json'), path.join(dir, 'groq.json'));
  copyFileSync(path.join(REAL_DIR, 'SOURCES.md'), path.join(dir, 'SOURCES.md'));
  mkdirSync(path.join(dir, 'sources'));
  const har = 'mirascope-gpt5mini-resume-two-turns.har';
  copyFileSync(path.join(REAL_SOURCES_DIR, har), path.join(dir, 'sources', har));
  copyFileSync(path.join(REAL_SOURCES_DIR, har), path.join(dir, 'sources', 'recording.json'));
  copyFileSync(path.join(REAL_SOURCES_DIR, 'manifest.yaml'), path.join(dir, 'sources', 'manifest.yaml'));
  const vcr = 'rubyopenai-groq-llama3-stream.yml';
  copyFileSync(path.join(REAL_SOURCES_DIR, vcr), path.join(dir, 'sources', vcr));
  writeFileSync(
    path.join(dir, 'results.json'),
    JSON.stringify({ format: 'harness-bench.results', version: 1 }),
  );
  return dir;
}

async function problems(promise: Promise<unknown>): Promise<string[]> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).problems.map((p) => `${p.file}: ${p.reason}`);
  }
  throw new Error('expected an InputError');
}

describe('loadCassettes', () => {
  it('a folder or a glob skips files that are not cassettes and loads the rest', async () => {
    const dir = recordingsFolder();
    for (const pattern of ['.', '**/*', '*', '**/*.json']) {
      const skipped: string[] = [];
      const loaded = await loadCassettes([pattern], dir, (file) => skipped.push(file));
      expect(
        loaded.map((l) => l.file),
        pattern,
      ).toEqual(['groq.json']);
      expect(skipped.length, pattern).toBeGreaterThan(0);
      expect(skipped).not.toContain('groq.json');
    }
    const skipped: string[] = [];
    await loadCassettes(['*'], dir, (file) => skipped.push(file));
    expect(skipped.sort()).toEqual(['SOURCES.md', 'results.json']);
  });

  it('a named file that is not a cassette is bad input, naming a foreign recording and the import command', async () => {
    const dir = recordingsFolder();
    expect(await problems(loadCassettes(['SOURCES.md'], dir))).toEqual([
      expect.stringMatching(/^SOURCES\.md: not a cassette: not JSON/),
    ]);
    const [vcr] = await problems(loadCassettes(['sources/rubyopenai-groq-llama3-stream.yml'], dir));
    expect(vcr).toMatch(
      /not a cassette: not JSON .*reads as a ruby-vcr-yaml recording: run `harness-bench import/,
    );
    const [har] = await problems(loadCassettes(['sources/mirascope-gpt5mini-resume-two-turns.har'], dir));
    expect(har).toMatch(/not a cassette: "format" must be .*, got none .*; it reads as a har recording/);
    const [json] = await problems(loadCassettes(['sources/recording.json'], dir));
    expect(json).toMatch(
      /not a cassette: "format" must be "harness-bench.cassette", got none .*; it reads as a har/,
    );
    expect(await problems(loadCassettes(['results.json'], dir))).toEqual([
      expect.stringContaining(
        'not a cassette: "format" must be "harness-bench.cassette", got "harness-bench.results"',
      ),
    ]);
  });

  it('a glob that matches only non-cassettes says so; a broken .json under a glob is still a problem', async () => {
    const dir = recordingsFolder();
    expect(await problems(loadCassettes(['sources'], dir))).toEqual([
      expect.stringMatching(/^sources: matches 1 file but no cassette/),
    ]);
    writeFileSync(path.join(dir, 'broken.json'), '{"format": "harness-bench.cassette",');
    expect((await problems(loadCassettes(['.'], dir)))[0]).toMatch(/^broken\.json: JSON syntax error/);
  });
});

describe('harness-bench run --recordings', () => {
  const run = async (cwd: string, ...args: string[]) => {
    let out = '';
    let err = '';
    const io: CliIo = {
      stdout: (t) => (out += t),
      stderr: (t) => (err += t),
      cwd,
      env: { NO_COLOR: '1' },
      isTTY: false,
    };
    const code = await main(['node', 'harness-bench', ...args], io);
    return { code, out, err };
  };

  it('runs a folder holding SOURCES.md and source recordings; a named SOURCES.md exits 2 with "not a cassette"', async () => {
    const dir = recordingsFolder();
    const folder = await run(dir, 'run', '--recordings', '.');
    expect(folder.err).not.toMatch(/not a cassette/);
    expect(folder.out).toMatch(/1 recording/);
    const named = await run(dir, 'run', '--recordings', 'SOURCES.md');
    expect(named.code).toBe(2);
    expect(named.err).toMatch(/SOURCES\.md.*not a cassette/);
    const replay = await run(dir, 'replay', 'SOURCES.md');
    expect(replay.code).toBe(2);
    expect(replay.err).toMatch(/not a cassette/);
    const validate = await run(dir, 'validate', 'sources/rubyopenai-groq-llama3-stream.yml');
    expect(validate.code).toBe(2);
    expect(validate.err).toMatch(
      /not a cassette: it reads as a ruby-vcr-yaml recording; run `harness-bench import/,
    );
  });
});
