import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, type InputProblem } from '../errors.ts';
import { loadScriptedTurns } from './scripted-turns.ts';

/** Writes `text` to `name` in a fresh folder and loads it: the turns, or the problems. */
function load(name: string, text: string): { turns?: unknown[]; problems?: InputProblem[] } {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hb-then-')), name);
  writeFileSync(file, text);
  try {
    return { turns: loadScriptedTurns(file, name) };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return { problems: error.problems };
  }
}

describe('the scripted turns of replay --then', () => {
  it('accepts what a scenario model accepts: an array, or an object with a model array', () => {
    const turns = [
      { tool_calls: [{ id: 'c1', name: 'read_file', arguments: { path: 'a.txt' } }] },
      { tool_calls: [{ name: 'bash', arguments: 5 }], repeat: 2 },
      { error: { status: 503 } },
      { content: 'done' },
    ];
    expect(load('then.json', JSON.stringify(turns))).toEqual({ turns });
    expect(load('then.yaml', 'id: x\nmodel:\n  - content: done\n')).toEqual({ turns: [{ content: 'done' }] });
  });

  it('names the file, the JSON path and the reason of every bad turn', () => {
    const bad = [
      { bogus: 1 },
      { arguments: 5 },
      { tool_calls: [{ name: 'x', argument: '{}' }] },
      5,
      { error: { status: 99 } },
    ];
    expect(load('then.json', JSON.stringify(bad)).problems).toEqual([
      { file: 'then.json', path: '/0/bogus', reason: expect.stringMatching(/^unknown key "bogus"/) },
      { file: 'then.json', path: '/1/arguments', reason: expect.stringMatching(/^unknown key "arguments"/) },
      { file: 'then.json', path: '/2/tool_calls/0', reason: 'missing required key "arguments"' },
      {
        file: 'then.json',
        path: '/2/tool_calls/0/argument',
        reason: 'unknown key "argument" (did you mean "arguments"?)',
      },
      { file: 'then.json', path: '/3', reason: expect.stringMatching(/^must be object/) },
      { file: 'then.json', path: '/4/error/status', reason: 'must be >= 100' },
    ]);
    expect(load('then.yaml', 'model:\n  - contnt: x\n').problems).toEqual([
      {
        file: 'then.yaml',
        path: '/model/0/contnt',
        reason: 'unknown key "contnt" (did you mean "content"?)',
      },
    ]);
  });

  it('refuses a file that holds no list of turns, or is not JSON', () => {
    expect(load('then.json', '[]').problems?.[0]?.reason).toMatch(
      /must be a non-empty array of scripted turns/,
    );
    expect(load('then.json', '{"model": 3}').problems?.[0]).toMatchObject({ path: '/model' });
    expect(load('then.json', '[{').problems?.[0]?.reason).toMatch(
      /^JSON syntax error: .* at line 1, column 3$/,
    );
  });
});
