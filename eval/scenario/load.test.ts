import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../errors.ts';
import { loadScenarios } from './load.ts';
import { parseScenarioText } from './parse.ts';
import { validateScenario } from './validate.ts';

const minimal = {
  id: 'demo/one',
  task: 'Say hi.',
  model: [{ content: 'hi' }],
  expect: { stopReason: 'final_answer' },
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hb-load-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function put(path: string, text: string): Promise<void> {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), text);
}

async function problemsOf(globs: string[]): Promise<{ file: string; path: string; reason: string }[]> {
  try {
    await loadScenarios(globs, dir);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).problems;
  }
  throw new Error('expected an InputError');
}

describe('loadScenarios', () => {
  it('never descends into node_modules, unless the pattern names it (the package’s own scenarios)', async () => {
    await put('mine/a.json', JSON.stringify(minimal));
    await put('node_modules/harness-bench/scenarios/b.json', JSON.stringify({ ...minimal, id: 'pkg/b' }));
    const ids = async (globs: string[]) =>
      (await loadScenarios(globs, dir)).scenarios.map((s) => s.scenario.id);
    expect(await ids(['**/*.json'])).toEqual(['demo/one']);
    expect(await ids(['node_modules/harness-bench/scenarios/**/*.json'])).toEqual(['pkg/b']);
    expect(await ids(['node_modules/harness-bench/scenarios'])).toEqual(['pkg/b']);
  });

  it('loads JSON and YAML from a directory, skipping schema/ and other extensions, sorted by path', async () => {
    await put('s/b.json', JSON.stringify({ ...minimal, id: 'b' }));
    await put('s/a.yaml', 'id: a\ntask: t\nmodel:\n  - content: hi\nexpect:\n  stopReason: final_answer\n');
    await put(
      's/nested/c.yml',
      'id: c\ntask: t\nmodel: [{content: hi}]\nexpect: {stopReason: final_answer}\n',
    );
    await put('s/schema/x.json', '{"not": "a scenario"}');
    await put('s/README.md', '# notes');
    const { scenarios } = await loadScenarios(['s'], dir);
    expect(scenarios.map((s) => s.file)).toEqual(['s/a.yaml', 's/b.json', 's/nested/c.yml']);
    expect(scenarios.map((s) => s.scenario.id)).toEqual(['a', 'b', 'c']);
  });

  it('expands globs and de-duplicates files matched twice', async () => {
    await put('s/one.json', JSON.stringify(minimal));
    const { scenarios } = await loadScenarios(['s/*.json', 's/**/*.json', 's/one.json'], dir);
    expect(scenarios).toHaveLength(1);
  });

  it('reports every problem of every file with file, JSON path and reason, and loads nothing', async () => {
    await put('s/good.json', JSON.stringify(minimal));
    await put(
      's/unknown-key.json',
      JSON.stringify({
        ...minimal,
        id: 'u',
        expect: { stopReason: 'final_answer', stopReasn: 'x' },
        tittle: 'typo',
      }),
    );
    await put(
      's/wrong-type.json',
      JSON.stringify({ ...minimal, id: 'w', model: [{ content: 42, tool_calls: [{ name: 'x' }] }] }),
    );
    await put('s/missing-stop.json', JSON.stringify({ ...minimal, id: 'm', expect: { modelCalls: 1 } }));
    await put('s/bad.yaml', 'id: y\ntask: [unclosed\nmodel: []\n');
    await put('s/bad.json', '{"id": "j", "task" "t"}');
    const problems = await problemsOf(['s']);
    const lines = problems.map((p) => `${p.file} ${p.path} ${p.reason}`);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^s\/unknown-key\.json \/tittle unknown key "tittle".*\(line 1, column/),
        expect.stringMatching(/^s\/unknown-key\.json \/expect\/stopReasn unknown key "stopReasn"/),
        expect.stringMatching(/^s\/wrong-type\.json \/model\/0\/content must be string or null, got number/),
        expect.stringMatching(
          /^s\/wrong-type\.json \/model\/0\/tool_calls\/0 missing required key "arguments"/,
        ),
        expect.stringMatching(/^s\/missing-stop\.json \/expect missing required key "stopReason"/),
        expect.stringMatching(/^s\/bad\.yaml {2}YAML syntax error at line \d+, column \d+/),
        expect.stringMatching(/^s\/bad\.json {2}JSON syntax error: .* at line 1, column 20/),
      ]),
    );
    expect(problems.some((p) => p.file === 's/good.json')).toBe(false);
  });

  it('rejects duplicate ids across files, naming the first file', async () => {
    await put('s/a.json', JSON.stringify(minimal));
    await put('s/b.json', JSON.stringify(minimal));
    const problems = await problemsOf(['s']);
    expect(problems).toEqual([
      { file: 's/b.json', path: '/id', reason: 'duplicate id "demo/one" (already used by s/a.json)' },
    ]);
  });

  it('reports a pattern that matches nothing', async () => {
    const problems = await problemsOf(['nowhere/*.json']);
    expect(problems[0]).toMatchObject({
      file: 'nowhere/*.json',
      reason: expect.stringContaining('no scenario files'),
    });
  });

  it('reports YAML duplicate keys', async () => {
    await put(
      's/dup.yaml',
      'id: a\nid: b\ntask: t\nmodel: [{content: hi}]\nexpect: {stopReason: final_answer}\n',
    );
    const problems = await problemsOf(['s']);
    expect(problems[0]!.reason).toMatch(/YAML syntax error at line 2.*unique/i);
  });
});

describe('validateScenario semantic rules', () => {
  it('accepts the example of the format document', () => {
    const example = {
      id: 'bad-json/missing-colon',
      title: 'Invalid JSON arguments become a retryable error, the run goes on',
      tags: ['bad-json'],
      source: 'openai/openai-agents-js#723',
      task: 'Tell me what src/index.ts exports.',
      config: { limits: { maxTurns: 8 } },
      tools: ['read_file', 'write_file', 'bash'],
      workspace: {
        files: { 'src/index.ts': 'export function main() {}\n' },
        dirs: ['docs'],
        symlinks: { outbox: '$OUTSIDE' },
        outside: { 'victim.txt': 'original' },
      },
      fakeTools: {},
      approver: { default: 'deny', rules: [] },
      model: [
        { tool_calls: [{ id: 'call_a1', name: 'read_file', arguments: '{"path" "src/index.ts"}' }] },
        { tool_calls: [{ id: 'call_a2', name: 'read_file', arguments: { path: 'src/index.ts' } }] },
        { content: 'index.ts exports main().' },
      ],
      expect: {
        stopReason: 'final_answer',
        modelCalls: 3,
        executed: ['call_a2'],
        results: {
          call_a1: { ok: false, errorType: 'invalid_json', retryable: true },
          call_a2: { ok: true },
        },
        permissions: { call_a2: 'allow' },
      },
    };
    expect(validateScenario(example, 'x.json')).toEqual([]);
  });

  it('checks paths, tool names, fake parameter schemas, content size, config keys and vocabularies', () => {
    const problems = validateScenario(
      {
        ...minimal,
        tools: ['read_file', 'read_fle', 'bash'],
        config: { limits: { maxTurnz: 3 } },
        workspace: {
          files: { '/etc/passwd': 'x', big: { $gen: 'repeat', text: 'xx', count: 40_000_000 } },
          dirs: ['../up'],
        },
        fakeTools: { bash: { results: [{ output: 'ok' }] }, q: { parameters: { type: 'string' } } },
        expect: {
          stopReason: 'finished',
          results: { c1: { errorType: 'bad_json' } },
          events: ['loop_warned'],
          transcript: false,
        },
      },
      'x.json',
    );
    const text = problems.map((p) => `${p.path}: ${p.reason}`);
    expect(text).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/config\/limits\/maxTurnz: unknown key/),
        expect.stringMatching(/^\/expect\/stopReason: must be one of "final_answer"/),
        expect.stringMatching(/^\/expect\/results\/c1\/errorType: must be one of "invalid_json"/),
        expect.stringMatching(/^\/expect\/events\/0: must be one of "run_start"/),
        '/expect/transcript: must be true',
        expect.stringMatching(/^\/workspace\/files\/~1etc~1passwd: "\/etc\/passwd" must be a relative path/),
        expect.stringMatching(/^\/workspace\/files\/big: content would be 80000000 characters/),
        expect.stringMatching(/^\/workspace\/dirs\/0: "..\/up" must be a relative path/),
        expect.stringMatching(/^\/tools\/1: unknown tool "read_fle"/),
        '/fakeTools/q/parameters: tool parameters must be a JSON Schema with "type": "object"',
      ]),
    );
  });

  it('requires: known prerequisites and command:NAME pass; an unknown one is named with the known ones', () => {
    expect(
      validateScenario({ ...minimal, requires: ['sandbox', 'bwrap', 'browser', 'command:git'] }, 'x.json'),
    ).toEqual([]);
    const text = validateScenario(
      { ...minimal, requires: ['bwrapp', 'command:', 'linux', 'linux'] },
      'x.json',
    ).map((p) => `${p.path}: ${p.reason}`);
    expect(text).toEqual(
      expect.arrayContaining([
        '/requires/0: unknown prerequisite "bwrapp"; known: sandbox, bwrap, seatbelt, linux, macos, browser, or command:NAME',
        expect.stringMatching(/^\/requires\/1: unknown prerequisite "command:"/),
        expect.stringMatching(/^\/requires: must NOT have duplicate items/),
      ]),
    );
  });

  it('keeps only the errors of the chosen $gen form', () => {
    const problems = validateScenario(
      { ...minimal, workspace: { files: { a: { $gen: 'lines', count: 3 } } } },
      'x.json',
    );
    expect(problems.map((p) => `${p.path}: ${p.reason}`)).toEqual([
      '/workspace/files/a: missing required key "pattern"',
    ]);
  });

  it('requires a command check to have exitCode and a file check to say what to check', () => {
    const problems = validateScenario(
      {
        ...minimal,
        expect: {
          stopReason: 'final_answer',
          evidence: [{ command: 'true' }, { file: 'a' }, { file: 'a', command: 'x', exitCode: 0 }],
        },
      },
      'x.json',
    );
    expect(problems.map((p) => `${p.path}: ${p.reason}`)).toEqual([
      '/expect/evidence/0: missing required key "exitCode"',
      '/expect/evidence/1: a file check needs "exists", "contains" or "equals"',
      '/expect/evidence/2: a command check takes only "command" and "exitCode"',
    ]);
  });
});

describe('validateScenario: the script and the ids expectations name', () => {
  const base = {
    id: 'x/ids',
    task: 't',
    model: [
      { tool_calls: [{ id: 'c1', name: 'read_file', arguments: '{}' }], repeat: 3 },
      { content: 'done' },
    ],
    expect: { stopReason: 'final_answer' },
  };

  it('accepts ids the script sends, repeat copies and ids the harness assigns', () => {
    const ok = {
      ...base,
      expect: {
        stopReason: 'final_answer',
        executed: ['c1', 'c1_2', 'c1_3'],
        results: { call_0001: { ok: true }, 'c1~2': { ok: true } },
      },
    };
    expect(validateScenario(ok, 'f.json')).toEqual([]);
  });

  it('names an expectation id that no call has, with its path', () => {
    const bad = {
      ...base,
      expect: { stopReason: 'final_answer', results: { call_zz: { ok: true } }, executed: ['c1_4'] },
    };
    const problems = validateScenario(bad, 'f.json');
    expect(problems.map((p) => p.path).sort()).toEqual(['/expect/executed/0', '/expect/results/call_zz']);
    expect(problems[0]!.reason).toMatch(/no call with id/);
  });

  it('refuses a repeat that would expand the script past the limit (no out-of-memory later)', () => {
    const huge = { ...base, model: [{ content: 'x', repeat: 1_000_000_000 }] };
    const problems = validateScenario(huge, 'f.json');
    expect(problems).toEqual([
      expect.objectContaining({
        path: '/model',
        reason: expect.stringMatching(/1000000000 model turns.*limit is 100000/),
      }),
    ]);
  });
});

describe('parseScenarioText', () => {
  it('gives line numbers for schema problems in YAML', () => {
    const parsed = parseScenarioText(
      'id: a\ntask: t\nmodel:\n  - content: hi\n    bogus: 1\nexpect:\n  stopReason: final_answer\n',
      'a.yaml',
    );
    if (!parsed.ok) throw new Error('parse failed');
    expect(validateScenario(parsed.value, 'a.yaml', parsed.locate)).toEqual([
      {
        file: 'a.yaml',
        path: '/model/0/bogus',
        reason: expect.stringMatching(
          /^unknown key "bogus" \(keys are case-sensitive; known keys: .*\) \(line 5, column 12\)$/,
        ),
      },
    ]);
  });
});

describe('loadScenarios file handling', () => {
  it('rejects an explicitly named file with another extension', async () => {
    await put('notes.md', '# hi');
    expect(await problemsOf(['notes.md'])).toEqual([
      { file: 'notes.md', path: '', reason: 'a scenario file ends in .json, .yaml or .yml' },
    ]);
  });
});
