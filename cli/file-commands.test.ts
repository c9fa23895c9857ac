/**
 * The commands that read and write files behave like a careful tool: `validate` names real files
 * (never the glob), walks folders and says what a file is not; `import` and `export` refuse to
 * overwrite without `--force`; `replay -w DIR` leaves DIR as it was unless `--in-place`.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../eval/config-load.ts';
import { REAL_SOURCES_DIR } from '../eval/import/import-real.ts';
import { cli, put, scenario, STACK_LINE, tempDir } from './cli.test-helpers.ts';

const REAL = path.join(PACKAGE_ROOT, 'recordings/real');

describe('validate', () => {
  it('a glob: every message names the real file it matched', async () => {
    const dir = tempDir();
    put(dir, {
      'sc/good.json': scenario('good/one'),
      'sc/bad.json': scenario('bad/one', [], { expect: { stopReson: 'final_answer' } }),
    });
    const result = await cli(dir, ['validate', 'sc/*.json']);
    expect(result.code).toBe(2);
    expect(result.out).toMatch(/^ok sc\/good\.json \(scenario\)$/m);
    expect(result.err).toMatch(
      /sc\/bad\.json: \/expect\/stopReson: unknown key "stopReson" \(did you mean "stopReason"\?\)/,
    );
    expect(result.err).not.toMatch(/\*/);
  });

  it('a folder: recursed; each file checked as what it is; other files listed as skipped', async () => {
    const dir = tempDir();
    put(dir, {
      'project/scenarios/a.yaml':
        'id: y/a\ntask: t\nmodel:\n  - content: done\nexpect:\n  stopReason: final_answer\n',
      'project/scenarios/deep/b.json': scenario('y/b'),
      'project/configs/mine.json': { limits: { maxTurns: 4 } },
      'project/package.json': { name: 'mine', version: '1.0.0' },
      'project/node_modules/x/s.json': scenario('never/read'),
      'project/scenarios/schema/s.schema.json': { type: 'object' },
    });
    copyFileSync(path.join(REAL, 'groq-gptoss120b-tool-use-failed.json'), path.join(dir, 'project/c.json'));
    copyFileSync(
      path.join(REAL_SOURCES_DIR, 'rubyopenai-groq-llama3-stream.yml'),
      path.join(dir, 'project/vcr.yml'),
    );
    const result = await cli(dir, ['validate', 'project']);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out.split('\n').filter((l) => l.startsWith('ok '))).toEqual([
      'ok project/c.json (cassette)',
      'ok project/configs/mine.json (config)',
      'ok project/scenarios/a.yaml (scenario)',
      'ok project/scenarios/deep/b.json (scenario)',
    ]);
    expect(result.out).toMatch(/^skip project\/package\.json: not a scenario, cassette or configuration$/m);
    expect(result.out).toMatch(
      /^skip project\/vcr\.yml: not a cassette: it reads as a ruby-vcr-yaml recording/m,
    );
    expect(result.out).not.toMatch(/node_modules|schema/);
  });

  it('a file named explicitly that is none of them is exit 2: "not a scenario, cassette or configuration"', async () => {
    const dir = tempDir();
    put(dir, {
      'package.json': { name: 'mine', version: '1.0.0' },
      'notes.md': '# notes',
      'results.json': { format: 'harness-bench.results', version: 1 },
    });
    const result = await cli(dir, [
      'validate',
      'package.json',
      'notes.md',
      'results.json',
      'missing.json',
      'none/*.yaml',
    ]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/^ {2}package\.json: not a scenario, cassette or configuration$/m);
    expect(result.err).toMatch(
      /^ {2}notes\.md: not a scenario, cassette or configuration \(those are \.json, \.yaml or \.yml files\)$/m,
    );
    expect(result.err).toMatch(
      /^ {2}results\.json: not a scenario, cassette or configuration \(its format is "harness-bench\.results"\)$/m,
    );
    expect(result.err).toMatch(/^ {2}missing\.json: no such file or folder$/m);
    expect(result.err).toMatch(/^ {2}none\/\*\.yaml: no file matches this glob$/m);
    expect(result.err).not.toMatch(STACK_LINE);
  });
});

describe('import and export refuse to overwrite without --force', () => {
  it('import: exit 2 naming the cassette, nothing written; --force overwrites', async () => {
    const out = tempDir();
    put(out, { 'rubyopenai-groq-llama3-stream.json': 'mine' });
    const refused = await cli(REAL_SOURCES_DIR, [
      'import',
      'rubyopenai-groq-llama3-stream.yml',
      'mirascope-gpt5mini-resume-two-turns.har',
      '--out',
      out,
    ]);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(
      /rubyopenai-groq-llama3-stream\.yml: .*rubyopenai-groq-llama3-stream\.json exists; pass --force/,
    );
    expect(readFileSync(path.join(out, 'rubyopenai-groq-llama3-stream.json'), 'utf8')).toBe('mine');
    expect(readdirSync(out)).toEqual(['rubyopenai-groq-llama3-stream.json']);
    const forced = await cli(REAL_SOURCES_DIR, [
      'import',
      'rubyopenai-groq-llama3-stream.yml',
      '--out',
      out,
      '--force',
    ]);
    expect(forced.code).toBe(0);
    expect(readFileSync(path.join(out, 'rubyopenai-groq-llama3-stream.json'), 'utf8')).toMatch(
      /harness-bench\.cassette/,
    );
  });

  it('export: exit 2 when --out exists; --force overwrites', async () => {
    const dir = tempDir();
    put(dir, { 'nock.json': 'mine' });
    const cassette = path.join(REAL, 'groq-gptoss120b-tool-use-failed.json');
    const refused = await cli(dir, ['export', '--nock', cassette, '--out', 'nock.json']);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/--out nock\.json: exists; pass --force to overwrite it/);
    expect(readFileSync(path.join(dir, 'nock.json'), 'utf8')).toBe('mine');
    expect((await cli(dir, ['export', '--nock', cassette, '--out', 'nock.json', '--force'])).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'nock.json'), 'utf8'))).toBeInstanceOf(Array);
  });
});

describe('replay -w DIR', () => {
  const cassette = path.join(PACKAGE_ROOT, 'recordings/examples/stub-read-then-write-asked.json');
  const workspace = () => {
    const dir = tempDir();
    put(dir, { 'ws/notes.txt': 'buy milk\ncall the plumber\n' });
    return dir;
  };

  it('works on a copy: the tools write, the folder is left as it was', async () => {
    const dir = workspace();
    const result = await cli(dir, ['replay', cassette, '-c', 'permissive', '-w', 'ws']);
    expect(result.out).toMatch(/write_file\(.*verdict allow, executed, ok/);
    expect(result.out).toMatch(
      /workspace: a copy of ws \(the folder is left as it was; --in-place to work in it\)/,
    );
    expect(readdirSync(path.join(dir, 'ws'))).toEqual(['notes.txt']);
  });

  it('--in-place lets the tools change the folder itself', async () => {
    const dir = workspace();
    await cli(dir, ['replay', cassette, '-c', 'permissive', '-w', 'ws', '--in-place']);
    expect(existsSync(path.join(dir, 'ws/summary.txt'))).toBe(true);
  });

  it('--in-place without -w, and -w that is not a folder, are exit 2', async () => {
    const dir = workspace();
    expect((await cli(dir, ['replay', cassette, '--in-place'])).err).toMatch(
      /--in-place: only applies with --workspace/,
    );
    expect((await cli(dir, ['replay', cassette, '-w', 'nope'])).err).toMatch(
      /--workspace nope: does not exist/,
    );
    writeFileSync(path.join(dir, 'a-file'), 'x');
    expect((await cli(dir, ['replay', cassette, '-w', 'a-file'])).err).toMatch(
      /--workspace a-file: is a file; --workspace takes a folder/,
    );
  });
});
