import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../eval/config-load.ts';
import { cli, put, scenario, STACK_LINE, tempDir } from './cli.test-helpers.ts';

const strict = path.join(PACKAGE_ROOT, 'configs/strict.json');

function suite(): string {
  const dir = tempDir();
  put(dir, {
    's/read-a.json': scenario('read/a', ['fast', 'read']),
    's/read-b.json': scenario('read/b', ['slow', 'read']),
    's/other.json': scenario('other/c', ['fast']),
  });
  return dir;
}

describe('run -c: a file, NAME=FILE, or a name', () => {
  it('-c NAME=FILE names the configuration in the results', async () => {
    const dir = suite();
    const result = await cli(dir, [
      'run',
      '-s',
      's',
      '-f',
      'read/a',
      '-c',
      `tight=${strict}`,
      '-c',
      'loose=permissive',
      '--json',
      'r.json',
    ]);
    expect(result.err).not.toMatch(/invalid/);
    const results = JSON.parse(readFileSync(path.join(dir, 'r.json'), 'utf8'));
    expect(results.configs.map((c: { name: string }) => c.name)).toEqual(['tight', 'loose']);
    expect(results.cases.map((c: { config: string }) => c.config)).toEqual(['tight', 'loose']);
  });

  it('-c NAME finds a configuration the package ships', async () => {
    const dir = suite();
    const result = await cli(dir, ['run', '-s', 's', '-f', 'read/a', '-c', 'strict', '--json', 'r.json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'r.json'), 'utf8')).configs[0].name).toBe('strict');
  });

  it('an unknown name is exit 2 with "did you mean" and the names there are', async () => {
    const result = await cli(suite(), ['run', '-s', 's', '-c', 'strct']);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(
      /-c strct: no configuration file or name "strct" \(did you mean "strict"\?\); names: .*default/,
    );
    expect(result.err).not.toMatch(STACK_LINE);
  });

  it('two configurations of one name are exit 2', async () => {
    const result = await cli(suite(), ['run', '-s', 's', '-c', 'a=strict', '-c', 'a=default']);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/two configurations are named "a"/);
  });
});

describe('run --filter, --tag (repeatable) and --list', () => {
  const listed = async (...flags: string[]) => {
    const result = await cli(suite(), ['run', '-s', 's', '--list', ...flags]);
    expect(result.code).toBe(0);
    return result.out
      .split('\n')
      .filter((l) => /^\S+\s+\[/.test(l))
      .map((l) => l.split(/\s+/)[0]);
  };

  it('--list prints every case with its tags and a count, runs nothing and writes nothing', async () => {
    const dir = suite();
    const result = await cli(dir, ['run', '-s', 's', '--list', '--out', 'reports']);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^other\/c +\[fast\]$/m);
    expect(result.out).toMatch(/^read\/a +\[fast, read\]$/m);
    expect(result.out).toMatch(/3 cases \(3 scenarios, 0 recordings\) under 1 configuration: default/);
    expect(result.err).toBe('');
    expect(existsSync(path.join(dir, 'reports'))).toBe(false);
  });

  it('--list shows recordings with their tags and the configuration when there are several', async () => {
    const dir = suite();
    const cassette = path.join(PACKAGE_ROOT, 'recordings/real/groq-gptoss120b-tool-use-failed.json');
    const result = await cli(dir, ['run', '-r', cassette, '--list', '-c', 'default', '-c', 'strict']);
    expect(result.out).toMatch(
      /^recording\/groq-gptoss120b-tool-use-failed +\(strict\) +\[recording, imported\]$/m,
    );
  });

  it('filters are OR-ed, tags are OR-ed, !TAG leaves out, and filters and tags AND', async () => {
    expect(await listed('-f', 'read/a', '-f', 'other')).toEqual(['other/c', 'read/a']);
    expect(await listed('-t', 'slow', '-t', 'fast')).toEqual(['other/c', 'read/a', 'read/b']);
    expect(await listed('-t', 'read', '-t', '!slow')).toEqual(['read/a']);
    expect(await listed('-f', 'read', '-t', 'fast')).toEqual(['read/a']);
    expect(await listed('--filter', 'READ/B')).toEqual(['read/b']);
  });

  it('a selection that keeps nothing is exit 2, naming the flags', async () => {
    const result = await cli(suite(), ['run', '-s', 's', '-t', 'none', '-f', 'x']);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(
      /--filter "x" --tag "none": no case to run \(3 scenarios and 0 recordings loaded, none selected/,
    );
  });

  it('runs only the selected cases', async () => {
    const dir = suite();
    const result = await cli(dir, ['run', '-s', 's', '-t', 'slow', '--json', 'r.json']);
    expect(result.code).toBe(0);
    const ids = JSON.parse(readFileSync(path.join(dir, 'r.json'), 'utf8')).cases.map(
      (c: { id: string }) => c.id,
    );
    expect(ids).toEqual(['read/b']);
  });
});

describe('run --bail', () => {
  it('says how many cases did not run', async () => {
    const dir = tempDir();
    const failing = scenario('a/fails', [], { expect: { stopReason: 'max_turns' } });
    put(dir, {
      's/a.json': failing,
      ...Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`s/b${i}.json`, scenario(`b/${i}`)])),
    });
    const result = await cli(dir, ['run', '-s', 's', '--bail', '--concurrency', '1']);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/--bail: stopped after the first failure; 4 of 5 cases did not run/);
  });
});

describe('the project configuration (harness-bench.config.yaml)', () => {
  it("init writes it and an example scenario; run in the project (or below it) runs the project's scenarios", async () => {
    const dir = tempDir();
    const init = await cli(dir, ['init']);
    expect(init.code).toBe(0);
    expect(existsSync(path.join(dir, 'harness-bench.config.yaml'))).toBe(true);
    expect(existsSync(path.join(dir, 'scenarios/example-read-then-answer.yaml'))).toBe(true);
    put(dir, { 'src/deep/keep': '' });
    const run = await cli(path.join(dir, 'src/deep'), ['run']);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/example\/read-then-answer/);
    expect(run.out).not.toMatch(/bad-json\//); // not the package's bundled suite
    expect(existsSync(path.join(dir, 'reports/harness-bench/results.json'))).toBe(true);
    expect((await cli(dir, ['validate', 'harness-bench.config.yaml', 'scenarios'])).code).toBe(0);
  });

  it('init refuses to overwrite without --force (exit 2, nothing written), and overwrites with it', async () => {
    const dir = tempDir();
    put(dir, { 'harness-bench.config.yaml': 'scenarios: [mine/]\n' });
    const refused = await cli(dir, ['init']);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/harness-bench\.config\.yaml: exists; nothing was written \(pass --force/);
    expect(readFileSync(path.join(dir, 'harness-bench.config.yaml'), 'utf8')).toBe('scenarios: [mine/]\n');
    expect(existsSync(path.join(dir, 'scenarios'))).toBe(false);
    expect((await cli(dir, ['init', '--force'])).code).toBe(0);
    expect(readFileSync(path.join(dir, 'harness-bench.config.yaml'), 'utf8')).toMatch(
      /scenarios:\n {2}- scenarios\//,
    );
  });

  it('names configurations (run runs them all; -c NAME picks one) and the out folder', async () => {
    const dir = suite();
    put(dir, {
      'cfg/mine.json': { limits: { maxTurns: 5 } },
      'harness-bench.config.yaml':
        'scenarios: s\nconfigurations:\n  mine: cfg/mine.json\n  tight: strict\nout: out\n',
    });
    const all = await cli(dir, ['run', '-f', 'read/a']);
    expect(all.code).toBe(0);
    const results = JSON.parse(readFileSync(path.join(dir, 'out/results.json'), 'utf8'));
    expect(results.configs.map((c: { name: string }) => c.name)).toEqual(['mine', 'tight']);
    const one = await cli(dir, ['run', '-f', 'read/a', '-c', 'tight', '--list']);
    expect(one.out).toMatch(/under 1 configuration: tight/);
  });

  it('a configuration name of the project file that names nothing lists the names (exit 2)', async () => {
    const dir = suite();
    put(dir, { 'harness-bench.config.yaml': 'scenarios: s\nconfigurations:\n  tight: stirct\n' });
    const result = await cli(dir, ['run', '--list']);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(
      /harness-bench\.config\.yaml: configurations\.tight: no configuration file or name "stirct" \(did you mean "strict"\?\); names: default, .*strict/,
    );
  });

  it('a broken project configuration is exit 2 with "did you mean"', async () => {
    const dir = suite();
    put(dir, { 'harness-bench.config.yaml': 'scenario: s\n' });
    const result = await cli(dir, ['run']);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(
      /harness-bench\.config\.yaml: \/: unknown key "scenario" \(did you mean "scenarios"\?\)/,
    );
  });

  it("without one, run runs the package's bundled suite (as npm start does)", async () => {
    const result = await cli(tempDir(), ['run', '--list', '-f', 'bad-json/missing-colon']);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^bad-json\/missing-colon/m);
  });
});

describe('did you mean, for flags and commands', () => {
  it('suggests the flag or command meant', async () => {
    const flag = await cli(tempDir(), ['run', '--filtr', 'x']);
    expect(flag.code).toBe(2);
    expect(flag.err).toMatch(/unknown option '--filtr'\n\(Did you mean --filter\?\)/);
    const command = await cli(tempDir(), ['rnu']);
    expect(command.code).toBe(2);
    expect(command.err).toMatch(/unknown command 'rnu'\n\(Did you mean run\?\)/);
  });
});

describe('input size limits', () => {
  it('a scenario over the limit is exit 2 with its size, the limit and how to raise it; the flag and the variable raise it', async () => {
    const dir = tempDir();
    const big = scenario('big/one', [], { title: 'x'.repeat(4096) });
    put(dir, { 's.json': big });
    const refused = await cli(dir, ['run', '-s', 's.json', '--max-file-size', '2KB']);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(
      /s\.json: is 4\.\d KiB; the limit for a scenario file is 2 KiB \(raise it with --max-file-size SIZE or HARNESS_BENCH_MAX_FILE_SIZE=SIZE\)/,
    );
    expect((await cli(dir, ['run', '-s', 's.json', '--max-file-size', '1MB'])).code).toBe(0);
    process.env.HARNESS_BENCH_MAX_FILE_SIZE = '2k';
    try {
      expect((await cli(dir, ['validate', 's.json'])).code).toBe(2);
      expect((await cli(dir, ['validate', 's.json', '--max-file-size', '8k'])).code).toBe(0);
    } finally {
      delete process.env.HARNESS_BENCH_MAX_FILE_SIZE;
    }
    expect((await cli(dir, ['run', '-s', 's.json', '--max-file-size', 'lots'])).err).toMatch(
      /--max-file-size: must be a size such as 64MB, got "lots"/,
    );
  });

  it('the default limit refuses a 9 MB scenario at once, and cassettes and configurations have theirs', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 's.json'),
      JSON.stringify(
        scenario('big/two', [], { workspace: { files: { 'a.txt': 'y'.repeat(9 * 1024 * 1024) } } }),
      ),
    );
    const result = await cli(dir, ['run', '-s', 's.json']);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/the limit for a scenario file is 8 MiB/);
    put(dir, { 'c.json': { limits: { maxTurns: 3 } }, 'pad.json': { limits: {} } });
    const config = await cli(dir, ['validate', 'c.json', '--max-file-size', '10']);
    expect(config.err).toMatch(/c\.json: is \d+ bytes; the limit for a configuration file is 10 bytes/);
    const cassette = path.join(PACKAGE_ROOT, 'recordings/real/groq-gptoss120b-tool-use-failed.json');
    const replay = await cli(dir, ['replay', cassette, '--max-file-size', '1KB']);
    expect(replay.code).toBe(2);
    expect(replay.err).toMatch(/the limit for a cassette is 1 KiB/);
  });
});

describe('harnessColumns', () => {
  it('names a column per harness × configuration and keeps what each configuration expects', async () => {
    const { harnessColumns } = await import('./run-plan.ts');
    const config = (name: string) => ({ name, file: `${name}.json`, config: {} as never });
    const ours = { kind: 'ours', name: 'ours' } as const;
    const mine = { kind: 'ours', name: 'mine' } as unknown as typeof ours;
    expect(harnessColumns([ours, mine], [config('default')]).map((c) => [c.name, c.expectAs])).toEqual([
      ['ours', 'default'],
      ['mine', 'default'],
    ]);
    expect(harnessColumns([ours, mine], [config('default'), config('strict')]).map((c) => c.name)).toEqual([
      'ours:default',
      'ours:strict',
      'mine:default',
      'mine:strict',
    ]);
    expect(() => harnessColumns([ours, ours], [config('default')])).toThrow(/two harnesses are named "ours"/);
  });
});
