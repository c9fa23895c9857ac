/**
 * The workspace itself swapped for a link between two turns, in real runs whose workspace is
 * swapped for a link to a folder with files of the same names: nothing is read from there, by
 * one read or several in a turn, small or large, of files read before or not. A file an editor
 * replaced (a new file renamed over it) is read again.
 */
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentText } from '../model/content.ts';
import type { ModelResponse } from '../model/types.ts';
import { SYNC_READ_MAX_BYTES } from '../sandbox/beneath.ts';
import { InlineModel, runScript, tempWorkspace, toolResult } from '../testing/scripted-runs.ts';
import { BUILTIN_TOOLS } from './builtin/index.ts';

const FILES = ['docs/a.txt', 'docs/c.txt', 'docs/d.txt', 'docs/e.txt', 'top.txt', 'big.txt'];
let space: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  space = tempWorkspace();
  for (const [root, text] of [
    [space.ws, 'inside'],
    [space.outside, 'SECRET'],
  ] as const) {
    mkdirSync(path.join(root, 'docs'));
    for (const file of FILES)
      writeFileSync(
        path.join(root, file),
        file === 'big.txt' ? `${text}\n${'x'.repeat(SYNC_READ_MAX_BYTES)}\n` : `${text}\n`,
      );
  }
  // Only outside: a file the run never looked at.
  writeFileSync(path.join(space.outside, 'docs', 'b.txt'), 'SECRET\n');
});
afterEach(() => space.dispose());

/** A run reading `turns[i]` at turn i; `between` runs while the model answers the second request. */
function reads(turns: string[][], between: () => void) {
  const model = new InlineModel((_request, index): ModelResponse => {
    if (index === 1) between();
    const paths = turns[index];
    if (!paths) return { content: 'done', toolCalls: [], finishReason: 'stop' };
    return {
      content: '',
      toolCalls: paths.map((p, j) => ({
        id: `r${index}_${j}`,
        type: 'function',
        function: { name: 'read_file', arguments: JSON.stringify({ path: p }) },
      })),
      finishReason: 'tool_calls',
    };
  });
  return runScript(space.ws, model, { tools: [BUILTIN_TOOLS.read_file!] });
}

const swapWorkspace = () => {
  renameSync(space.ws, `${space.ws}.old`);
  symlinkSync(space.outside, space.ws);
};
const seen = (result: Awaited<ReturnType<typeof reads>>) =>
  result.messages.map((m) => contentText(m.content)).join('\n');

describe('a read after the workspace changed between turns', () => {
  it('refuses a workspace swapped for a link elsewhere, reading nothing from there', async () => {
    const result = await reads([['docs/a.txt'], ['docs/a.txt']], swapWorkspace);
    expect(toolResult(result, 'r0_0').content).toContain('inside');
    expect(toolResult(result, 'r1_0').error?.type).toBe('path_outside_workspace');
    expect(seen(result)).not.toContain('SECRET');
  });

  it.each([
    ['a file the run never looked at, beside folders it did', [['docs/a.txt'], ['docs/b.txt']]],
    ['a file right below the workspace, never looked at', [['docs/a.txt'], ['top.txt']]],
    ['a file read before, then a new one in the same turn', [['docs/a.txt'], ['docs/a.txt', 'docs/b.txt']]],
    ['several files read before, in one turn', [FILES.slice(0, 4), FILES.slice(0, 4)]],
    [
      'a large file first (read asynchronously), then small ones',
      [FILES, ['big.txt', 'docs/a.txt', 'docs/c.txt']],
    ],
  ])('reads nothing from a swapped workspace: %s', async (_name, turns) => {
    const result = await reads(turns, swapWorkspace);
    expect(seen(result)).not.toContain('SECRET');
    expect(seen(result)).toContain('inside'); // the first turn read the workspace
  });

  it('a workspace turned into a link loop between turns is an error for the read, not for the run', async () => {
    const result = await reads([['docs/a.txt'], ['docs/a.txt']], () => {
      renameSync(space.ws, `${space.ws}.old`);
      symlinkSync(space.ws, space.ws);
    });
    expect(result.stopReason).toBe('final_answer');
    expect(toolResult(result, 'r1_0').error).toBeDefined();
  });

  it('reads a file an editor replaced (a new file renamed over it) again', async () => {
    const result = await reads([['docs/a.txt'], ['docs/a.txt']], () => {
      const file = path.join(space.ws, 'docs', 'a.txt');
      writeFileSync(`${file}.tmp`, 'edited\n');
      renameSync(`${file}.tmp`, file);
    });
    expect(toolResult(result, 'r1_0').content).toContain('edited');
  });
});
