import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deterministicDeps } from '../../deps.ts';
import { discoverSkills, SkillCatalog } from '../../memory/skills.ts';
import { TodoStore } from '../../memory/todos.ts';
import { LocalSandbox } from '../../sandbox/local.ts';
import { ToolRegistry } from '../registry.ts';
import type { RunServices, ToolDefinition, ToolOutput } from '../types.ts';
import { outputText, runTool } from './builtin.test-helpers.ts';
import { BUILTIN_TOOLS } from './index.ts';
import { readSkillTool, taskTool, writeTodosTool } from './memory-tools.ts';

let ws: string;
beforeEach(() => {
  ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-memory-')));
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

function services(over: Partial<RunServices> = {}): RunServices {
  return {
    todos: new TodoStore(),
    skills: new SkillCatalog(),
    spawnSubagent: async () => ({ ok: true, content: 'report' }),
    ...over,
  };
}

async function run(
  tool: ToolDefinition<never> | ToolDefinition,
  args: Record<string, unknown>,
  s: RunServices,
): Promise<ToolOutput> {
  return (tool as unknown as ToolDefinition).execute(args, {
    callId: 'call_1',
    sandbox: new LocalSandbox({ allowExec: false }),
    deps: deterministicDeps(),
    signal: new AbortController().signal,
    workspace: ws,
    resolvedPaths: [],
    services: s,
  });
}

describe('read_skill', () => {
  it('returns the body without front matter, from the catalog', async () => {
    mkdirSync(path.join(ws, '.agents', 'skills', 'release'), { recursive: true });
    writeFileSync(
      path.join(ws, '.agents', 'skills', 'release', 'SKILL.md'),
      '---\nname: release\ndescription: Cut a release\n---\nTag, then push.\n',
    );
    const skills = await discoverSkills({ workspace: ws });
    const text = outputText(await run(readSkillTool, { name: 'release' }, services({ skills })));
    expect(text).toMatch(/^Tag, then push\.\n\n\[skill release \(project\) in /);
    expect(text).not.toContain('description: Cut a release');
  });

  it('an unknown skill is invalid_arguments listing the real names; no path is ever resolved', async () => {
    for (const name of ['a', 'b']) {
      mkdirSync(path.join(ws, '.agents', 'skills', name), { recursive: true });
      writeFileSync(
        path.join(ws, '.agents', 'skills', name, 'SKILL.md'),
        `---\ndescription: skill ${name}\n---\nbody\n`,
      );
    }
    const skills = await discoverSkills({ workspace: ws });
    expect(outputText(await run(readSkillTool, { name: 'c' }, services({ skills })))).toBe(
      'ERROR invalid_arguments: no skill named "c"; available: a, b',
    );
    expect(readSkillTool.paths).toBeUndefined();
    const validate = new ToolRegistry([readSkillTool as unknown as ToolDefinition]).get(
      'read_skill',
    )!.validate;
    for (const bad of [{ name: '../x' }, { name: 'a/b' }, { name: '.hidden' }, { name: '' }])
      expect(validate(bad)).toBe(false);
  });

  it('outside a harness run it says so', async () => {
    expect(outputText(await runTool(readSkillTool, { name: 'x' }, ws))).toBe(
      'ERROR tool_failed: read_skill is only available inside a harness run',
    );
  });
});

describe('write_todos', () => {
  const todo = (content: string, status: string) => ({ content, activeForm: `${content}-ing`, status });

  it('replaces the whole list and shows the item in progress in its active form', async () => {
    const todos = new TodoStore([{ content: 'Old', activeForm: 'Old-ing', status: 'pending' }]);
    const out = await run(
      writeTodosTool,
      { todos: [todo('Read', 'completed'), todo('Fix', 'in_progress'), todo('Test', 'pending')] },
      services({ todos }),
    );
    expect(outputText(out)).toBe(
      'todo list replaced: 1 completed, 1 in progress, 1 pending\n[x] Read\n[>] Fix (now: Fix-ing)\n[ ] Test',
    );
    expect(todos.list().map((t) => t.content)).toEqual(['Read', 'Fix', 'Test']);
  });

  it('two items in progress, or work left with none in progress, is invalid_arguments and leaves the list alone', async () => {
    const todos = new TodoStore([todo('Keep', 'in_progress') as never]);
    const two = await run(
      writeTodosTool,
      { todos: [todo('A', 'in_progress'), todo('B', 'in_progress')] },
      services({ todos }),
    );
    expect(outputText(two)).toContain(
      'ERROR invalid_arguments: todo list not changed: 2 items are in_progress ("A", "B"); exactly one may be in_progress',
    );
    const none = await run(
      writeTodosTool,
      { todos: [todo('A', 'pending'), todo('B', 'completed')] },
      services({ todos }),
    );
    expect(outputText(none)).toContain('none is in_progress');
    expect(todos.list().map((t) => t.content)).toEqual(['Keep']);
    expect((await run(writeTodosTool, { todos: [todo('A', 'completed')] }, services({ todos }))).ok).toBe(
      true,
    );
    expect((await run(writeTodosTool, { todos: [] }, services({ todos }))).ok).toBe(true);
  });

  it('the schema requires content, activeForm and a known status', () => {
    const validate = new ToolRegistry([writeTodosTool as unknown as ToolDefinition]).get(
      'write_todos',
    )!.validate;
    expect(validate({ todos: [] })).toBe(true);
    expect(validate({ todos: [{ content: 'x', status: 'pending' }] })).toBe(false);
    expect(validate({ todos: [{ content: 'x', activeForm: 'x', status: 'done' }] })).toBe(false);
    expect(validate({ todos: 'x' })).toBe(false);
  });
});

describe('task', () => {
  it('hands the description and call id to the spawner and returns its output', async () => {
    const seen: unknown[] = [];
    const s = services({
      spawnSubagent: async (description, call) => {
        seen.push([description, call.callId]);
        return { ok: true, content: 'found it' };
      },
    });
    expect(outputText(await run(taskTool, { description: 'find the bug' }, s))).toBe('found it');
    expect(seen).toEqual([['find the bug', 'call_1']]);
  });
});

describe('the built-in set', () => {
  it('has every fixed name with its effect class', () => {
    const effects = Object.fromEntries(
      Object.entries(BUILTIN_TOOLS).map(([name, tool]) => [name, tool.effect]),
    );
    expect(effects).toEqual({
      read_file: 'read',
      list_dir: 'read',
      search_code: 'read',
      read_skill: 'read',
      search_notes: 'read',
      write_file: 'write',
      str_replace: 'write',
      write_todos: 'write',
      save_note: 'write',
      bash: 'write',
      task: 'read',
    });
    expect(() => new ToolRegistry(Object.values(BUILTIN_TOOLS))).not.toThrow();
  });
});
