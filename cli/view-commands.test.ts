/** `run --out` sidecars, `show CASE`, `report --format` and `run --verbose`, driven through `main`. */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../eval/config-load.ts';
import type { ResultsFile } from '../eval/results.ts';
import type { CaseFile } from '../reports/case-file.ts';
import { main } from './main.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'hb-view-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(...args: string[]) {
  return runIn(PACKAGE_ROOT, ...args);
}

async function runIn(cwd: string, ...args: string[]) {
  let out = '';
  let err = '';
  const io = {
    stdout: (s: string) => {
      out += s;
    },
    stderr: (s: string) => {
      err += s;
    },
    cwd,
    env: { NO_COLOR: '1' },
    isTTY: false,
  };
  const code = await main(['node', 'harness-bench', ...args], io);
  return { code, out, err };
}

const out = path.join(dir, 'run');
const suite = [
  '-s',
  'scenarios/escape/E08-file-tools-traversal.yaml',
  '-s',
  'scenarios/bad-json',
  '-r',
  'recordings/examples',
];

beforeAll(async () => {
  // strict's behaviour under another name (no expectFor.tight in the scenarios), so cases fail.
  await run('run', ...suite, '-c', 'configs/default.json', '-c', 'tight=configs/strict.json', '--out', out);
}, 90_000);

describe('run --out', () => {
  it('writes one sidecar per case × configuration and links each from results.json', () => {
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as ResultsFile;
    expect(results.cases.length).toBeGreaterThan(4);
    for (const c of results.cases) {
      expect(c.transcript).toBe(`cases/${c.config}/${c.id}.json`);
      const sidecar = JSON.parse(readFileSync(path.join(out, c.transcript!), 'utf8')) as CaseFile;
      expect(sidecar).toMatchObject({
        format: 'harness-bench.case',
        id: c.id,
        config: c.config,
        status: c.status,
      });
      if (c.status !== 'skipped') {
        expect(sidecar.run!.requests.length).toBe(c.usage.modelCalls);
        expect(sidecar.run!.ledger.stopReason).toBe(c.stopReason);
        expect(sidecar.run!.responses.length).toBe(c.usage.modelCalls);
        expect(sidecar.run!.events.at(-1)!.type).toBe('run_end');
      }
    }
    expect(existsSync(path.join(out, 'report.html'))).toBe(true);
    expect(readFileSync(path.join(out, 'results.json'), 'utf8')).not.toContain('"requests"');
  });

  it('a second run replaces cases/ whole (no stale sidecar of the first)', async () => {
    const again = path.join(dir, 'again');
    await run('run', ...suite, '--out', again);
    await run('run', '-s', 'scenarios/bad-json/double-encoded.yaml', '--out', again);
    expect(existsSync(path.join(again, 'cases/default/bad-json/double-encoded.json'))).toBe(true);
    expect(existsSync(path.join(again, 'cases/default/escape'))).toBe(false);
    expect(existsSync(path.join(again, `.cases-${process.pid}.tmp`))).toBe(false);
  }, 90_000);
});

describe('show', () => {
  it('prints the ledger: turns, calls with arguments, verdicts with rules, results, stop reason, failed checks', async () => {
    const shown = await run('show', 'E08-file-tools', '-c', 'tight', '--results', out);
    expect(shown.err).toBe('');
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('escape/E08-file-tools-traversal under tight: fail');
    expect(shown.out).toMatch(/turn 1: finish tool_calls, \d+ tool calls/);
    expect(shown.out).toContain(
      'call_v1 write_file({"path":"output/../escape.txt","content":"x"}) verdict deny (rule paths:write:**), not executed, policy_violation',
    );
    expect(shown.out).toMatch(/ {4}result: ".*policy_violation/);
    expect(shown.out).toContain('stop reason: policy_violation');
    expect(shown.out).toContain('✗ stopReason: expected final_answer, observed policy_violation');
  });

  it('names the choices when the case or the configuration is ambiguous or missing (exit 2)', async () => {
    const both = await run('show', 'E08-file-tools', '--results', out);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/ran under several configurations; pass -c with one of: default, tight/);
    const many = await run('show', 'bad-json', '-c', 'default', '--results', out);
    expect(many.code).toBe(2);
    expect(many.err).toMatch(/"bad-json" matches \d+ cases: bad-json\//);
    const none = await run('show', 'no-such-case', '--results', out);
    expect(none.err).toMatch(/no case "no-such-case" in these results/);
    const nowhere = await run('show', 'x', '--results', path.join(dir, 'missing'));
    expect(nowhere.code).toBe(2);
    expect(nowhere.err).toMatch(/cannot read the results: .*run `harness-bench run --out DIR` first/);
  });
});

describe('show in a project', () => {
  it('reads the run a plain `run` wrote: the out folder of harness-bench.config.yaml', async () => {
    const project = path.join(dir, 'project');
    const below = path.join(project, 'sub');
    mkdirSync(below, { recursive: true });
    expect((await runIn(project, 'init')).code).toBe(0);
    expect((await runIn(project, 'run')).code).toBe(0);
    const shown = await runIn(below, 'show', 'read-then-answer');
    expect(shown.err).toBe('');
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('example/read-then-answer under default: pass');
  }, 90_000);
});

describe('report --format', () => {
  it('re-renders each report from the stored run, byte for byte what run --out wrote', async () => {
    for (const [format, file] of [
      ['md', 'report.md'],
      ['junit', 'junit.xml'],
      ['html', 'report.html'],
    ] as const) {
      const target = path.join(dir, `again.${format}`);
      const written = await run(
        'report',
        path.join(out, 'results.json'),
        '--format',
        format,
        '--out',
        target,
      );
      expect(written.code).toBe(0);
      expect(readFileSync(target, 'utf8')).toBe(readFileSync(path.join(out, file), 'utf8'));
    }
    const table = await run('report', out, '--format', 'table');
    expect(table.out).toContain('escape/E08-file-tools-');
    const bad = await run('report', out, '--format', 'pdf');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/Allowed choices are html, md, junit, table/);
  });

  it('refuses an --out that is a folder (exit 2, nothing written) instead of failing at the rename', async () => {
    const folder = await run('report', out, '--format', 'md', '--out', out);
    expect(folder.code).toBe(2);
    expect(folder.err).toMatch(/--out .*is a folder; --out takes a file name/);
    expect(folder.err).not.toMatch(/internal error|EISDIR/);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses a damaged results file with each schema problem named (exit 2), in report and show alike', async () => {
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const cases = results.cases as Record<string, unknown>[];
    cases[0]!.usage = null;
    cases[1]!.status = 'weird';
    delete results.summary;
    const damaged = path.join(dir, 'damaged.json');
    writeFileSync(damaged, JSON.stringify(results));
    for (const args of [
      ['report', damaged],
      ['report', damaged, '--format', 'html', '--out', path.join(dir, 'damaged.html')],
      ['show', String(cases[0]!.id), '--results', damaged],
    ]) {
      const r = await run(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toContain(`${damaged}: /cases/0/usage: must be object`);
      expect(r.err).toContain(`${damaged}: /cases/1/status: must be one of`);
      expect(r.err).toContain("must have required property 'summary'");
      expect(r.err).not.toMatch(/internal error|TypeError/);
    }
    expect(existsSync(path.join(dir, 'damaged.html'))).toBe(false);
  });
});

describe('run --verbose', () => {
  it('prints the ledger of each failed case as it ends, and nothing for passing ones', async () => {
    const verbose = await run('run', ...suite, '-c', 'tight=configs/strict.json', '--verbose');
    expect(verbose.err).toContain('── escape/E08-file-tools-traversal (tight): fail');
    expect(verbose.err).toContain('verdict deny (rule paths:write:**)');
    expect(verbose.err).toContain('✗ stopReason: expected final_answer, observed policy_violation');
    // Passing cases print nothing: these bad-json cases pass under strict's rules (others write, which it refuses).
    for (const id of ['bad-json/single-quotes', 'bad-json/trailing-comma', 'bad-json/missing-colon'])
      expect(verbose.err).not.toContain(`── ${id} (tight)`);
    expect(verbose.err).toContain('── bad-json/braces-inside-strings (tight): fail');
  }, 90_000);
});

describe('show: a repaired tool call', () => {
  it('shows the arguments as the model sent them, and what was replayed in their place', async () => {
    const shown = await run('show', 'bad-json/missing-colon', '--results', out, '-c', 'default');
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out).toContain(
      'read_file({"path" "src/index.ts"}) verdict none, not executed, invalid_json',
    );
    expect(shown.out).toContain('replayed to the model as: {}');
    expect(shown.out).not.toContain('read_file({}) verdict');
  });
});
