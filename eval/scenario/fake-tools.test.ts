import { describe, expect, it } from 'vitest';
import type { ToolContext } from '../../harness/tools/types.ts';
import { fakeTools, matchesWhen, pickResult } from './fake-tools.ts';

const ctx = {} as ToolContext;

describe('fakeTools', () => {
  it('answers with the first unused matching entry, then repeats the last matching one', async () => {
    const [status] = fakeTools({
      job_status: {
        results: [
          { when: { id: 'j1' }, output: 'queued' },
          { when: { id: 'j2' }, output: 'other job' },
          { when: { id: 'j1' }, output: 'running' },
          { when: { id: 'j1' }, output: 'done' },
        ],
      },
    });
    const outputs = [];
    for (let i = 0; i < 5; i += 1) outputs.push(await status!.execute({ id: 'j1' }, ctx));
    expect(outputs.map((o) => (o.ok ? o.content : o.message))).toEqual([
      'queued',
      'running',
      'done',
      'done',
      'done',
    ]);
    expect(await status!.execute({ id: 'j2' }, ctx)).toEqual({ ok: true, content: 'other job' });
  });

  it('turns error entries into tool_failed and an unmatched call into "no scripted result"', async () => {
    const [tool] = fakeTools({ web_fetch: { results: [{ when: { url: 'https://a' }, error: 'HTTP 404' }] } });
    expect(await tool!.execute({ url: 'https://a' }, ctx)).toEqual({
      ok: false,
      errorType: 'tool_failed',
      message: 'HTTP 404',
    });
    expect(await tool!.execute({ url: 'https://b' }, ctx)).toEqual({
      ok: false,
      errorType: 'tool_failed',
      message: 'no scripted result for these arguments: {"url":"https://b"}',
    });
  });

  it('carries description, parameters, effect (default read) and untrusted', () => {
    const [a, b] = fakeTools({
      get_time: {},
      send_mail: {
        description: 'Sends mail.',
        parameters: { type: 'object', required: ['to'] },
        effect: 'irreversible',
        untrusted: true,
      },
    });
    expect([a!.name, a!.effect, a!.parameters, a!.untrusted]).toEqual([
      'get_time',
      'read',
      { type: 'object' },
      undefined,
    ]);
    expect([b!.description, b!.effect, b!.parameters, b!.untrusted]).toEqual([
      'Sends mail.',
      'irreversible',
      { type: 'object', required: ['to'] },
      true,
    ]);
  });

  it('keeps state per call of fakeTools(), so each run starts fresh', async () => {
    const spec = { t: { results: [{ output: 'first' }, { output: 'second' }] } };
    const [one] = fakeTools(spec);
    await one!.execute({}, ctx);
    const [two] = fakeTools(spec);
    expect(await two!.execute({}, ctx)).toEqual({ ok: true, content: 'first' });
  });
});

describe('matchesWhen / pickResult', () => {
  it('matches an argument subset with deep equality per key', () => {
    expect(matchesWhen({ paths: ['a', 'b'] }, { pattern: 'x', paths: ['a', 'b'] })).toBe(true);
    expect(matchesWhen({ paths: ['a', 'b'] }, { paths: ['b', 'a'] })).toBe(false);
    expect(matchesWhen({ n: 1 }, { n: '1' })).toBe(false);
    expect(matchesWhen({ missing: undefined }, {})).toBe(false);
    expect(matchesWhen(undefined, { any: 1 })).toBe(true);
  });

  it('returns undefined when nothing matches', () => {
    expect(pickResult([{ when: { a: 1 }, output: 'x' }], new Set(), { a: 2 })).toBeUndefined();
  });

  it('a fake bash with a string command parameter gets the command hook, so the policy analyses its commands', () => {
    const parameters = { type: 'object', required: ['command'], properties: { command: { type: 'string' } } };
    const [bash, noParams, other] = fakeTools({
      bash: { parameters },
      other_bash: { parameters },
      shell: {},
    });
    expect(bash!.command?.({ command: 'ls && rm -rf x' })).toBe('ls && rm -rf x');
    expect(noParams!.command).toBeUndefined();
    expect(other!.command).toBeUndefined();
    const [untyped] = fakeTools({ bash: {} });
    expect(untyped!.command).toBeUndefined();
  });
});
