/**
 * Path answers of a turn (`path-cache.ts`) against the file system, over random runs of reads,
 * writes and commands with the tree changed between turns (the harness creating files and
 * folders, anyone swapping folders for links to the outside):
 *
 * - every resolution a check uses, remembered or made from the turn's answers, equals the
 *   uncached resolution at that moment;
 * - no file tool reads or lists outside, and a command is always checked on what the file system
 *   says now.
 *
 * And two scenarios: a background job of a `bash` call swaps a folder for a link to the outside
 * between two reads of later turns, and a file a chat's earlier run created becomes a hard link
 * to an outside file between turns; the later read is checked afresh and refused.
 */
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelResponse, RawToolCall } from '../model/types.ts';
import { entrySync, type ResolvedPath, resolvePath } from '../policy/paths.ts';
import { LocalSandbox } from '../sandbox/local.ts';
import { InlineModel, runScript, tempWorkspace, toolResult } from '../testing/scripted-runs.ts';
import { BUILTIN_TOOLS } from './builtin/index.ts';
import { TurnPathCache } from './path-cache.ts';
import type { ToolDefinition } from './types.ts';

/** Uncached, synchronous: the promise holds the file system's answer at the moment of the call. */
const fresh = (ws: string, requested: string) => resolvePath(ws, requested, { entry: entrySync });

const PATHS = ['a/f.txt', 'b/f.txt', 'a/new.txt', 'a', 'b/../a/f.txt', 'c/f.txt', 'c'];

type Call = { tool: 'read_file' | 'list_dir' | 'write_file' | 'exec'; p: string };
// Mostly reads, and mostly creations, so that turns share folders.
const weighted = <T>(...items: [T, number][]) =>
  fc.oneof(...items.map(([value, weight]) => ({ arbitrary: fc.constant(value), weight })));
const callArb: fc.Arbitrary<Call> = fc.record({
  tool: weighted<Call['tool']>(['read_file', 5], ['list_dir', 2], ['write_file', 1], ['exec', 1]),
  // Files that the harness may create later come up most.
  p: weighted<string>(
    ...PATHS.map((p): [string, number] => [p, p === 'a/new.txt' ? 4 : p === 'c/f.txt' ? 2 : 1]),
  ),
});
type Change = { kind: 'create' | 'to-outside' | 'to-inside' | 'to-folder'; at: string };
const changeArb: fc.Arbitrary<Change> = fc.record({
  kind: weighted<Change['kind']>(['create', 3], ['to-outside', 1], ['to-inside', 1], ['to-folder', 1]),
  at: weighted<string>(['a', 1], ['b', 1], ['c', 1], ['a/new.txt', 3], ['c/f.txt', 2]),
});
const turnArb = fc.record({
  calls: fc.array(callArb, { minLength: 1, maxLength: 3 }),
  between: fc.array(changeArb, { maxLength: 2 }),
});

/** No link on the way from `ws` to `file` (what the harness's own creations below the workspace need). */
function linkFree(ws: string, file: string): boolean {
  let at = ws;
  for (const part of path.relative(ws, file).split(path.sep)) {
    at = path.join(at, part);
    try {
      if (lstatSync(at).isSymbolicLink()) return false;
    } catch {
      return true;
    }
  }
  return true;
}

const isLink = (file: string) => lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() === true;

/** Applies one change; `swaps`: whether folders may be swapped for links (else only creations). */
function apply(ws: string, outside: string, change: Change, swaps: boolean): void {
  const at = path.join(ws, change.at);
  if (change.kind === 'create') {
    // The harness's own files: a regular file (and its folders) where nothing is, never through a link.
    if (existsSync(at) || !linkFree(ws, at)) return;
    if (change.at.endsWith('.txt')) {
      mkdirSync(path.dirname(at), { recursive: true });
      writeFileSync(at, 'created\n');
    } else mkdirSync(at, { recursive: true });
    return;
  }
  if (!swaps || change.at.endsWith('.txt')) return;
  rmSync(at, { recursive: true, force: true });
  if (change.kind === 'to-outside') symlinkSync(outside, at);
  else if (change.kind === 'to-inside') symlinkSync(change.at === 'b' ? 'a' : 'b', at);
  else {
    mkdirSync(at);
    writeFileSync(path.join(at, 'f.txt'), `${change.at}\n`);
  }
}

const read = (p: string, between: Change[] = []) => ({ calls: [{ tool: 'read_file' as const, p }], between });
const create = (at: string): Change => ({ kind: 'create', at });

const asCall = (id: string, c: Call): RawToolCall => ({
  id,
  type: 'function',
  function: {
    name: c.tool,
    arguments: JSON.stringify(c.tool === 'write_file' ? { path: c.p, content: 'w' } : { path: c.p }),
  },
});

const reply = (calls: RawToolCall[] | undefined): ModelResponse =>
  calls
    ? { content: '', toolCalls: calls, finishReason: 'tool_calls', usage: {} }
    : { content: 'done', toolCalls: [], finishReason: 'stop', usage: {} };

let space: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  space = tempWorkspace();
});
afterEach(() => {
  vi.restoreAllMocks();
  space.dispose();
});

function seed(ws: string, outside: string): void {
  rmSync(ws, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
  mkdirSync(path.join(ws, 'a'), { recursive: true });
  mkdirSync(path.join(ws, 'b'));
  writeFileSync(path.join(ws, 'a', 'f.txt'), 'a\n');
  writeFileSync(path.join(ws, 'b', 'f.txt'), 'b\n');
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'f.txt'), 'OUTSIDE\n');
  writeFileSync(path.join(outside, 'outside-only.txt'), 'OUTSIDE\n');
}

/**
 * A command tool (`cat <p>`, classed by the shell analysis): it checks, when it runs, that the
 * path it was given is what the file system resolves now (`stale` collects any that is not).
 */
function execTool(ws: string, onRun: () => void, stale: string[]): ToolDefinition {
  return {
    name: 'exec',
    description: 'a command',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    effect: 'write',
    paths: (args) => [{ path: (args as { path: string }).path, access: 'read' }],
    command: (args) => `cat ${(args as { path: string }).path}`,
    async execute(args, context) {
      const now = await fresh(ws, (args as { path: string }).path);
      if (context.resolvedPaths[0] !== now.absolute)
        stale.push(`${context.resolvedPaths[0]} != ${now.absolute}`);
      onRun();
      return { ok: true, content: 'ran' };
    },
  };
}

async function runTurns(
  turns: { calls: Call[]; between: Change[] }[],
  swapsAllowed: (execRan: boolean) => boolean,
  stale: string[],
) {
  const { ws, outside } = space;
  seed(ws, outside);
  let execRan = false;
  const model = new InlineModel((_request, index) => {
    if (index > 0)
      for (const change of turns[index - 1]!.between) apply(ws, outside, change, swapsAllowed(execRan));
    const turn = turns[index];
    return reply(turn?.calls.map((c, i) => asCall(`c${index}_${i}`, c)));
  });
  return runScript(ws, model, {
    tools: [
      BUILTIN_TOOLS.read_file!,
      BUILTIN_TOOLS.list_dir!,
      BUILTIN_TOOLS.write_file!,
      execTool(ws, () => (execRan = true), stale),
    ],
    config: { permissions: { mode: 'auto' }, limits: { maxTurns: 50 } },
  });
}

describe('path answers of a turn', () => {
  it('equal the uncached resolution at every check, with the tree changed between turns (property)', async () => {
    const seen: Promise<[ResolvedPath, ResolvedPath]>[] = [];
    const recall = TurnPathCache.prototype.recall;
    const remember = TurnPathCache.prototype.remember;
    vi.spyOn(TurnPathCache.prototype, 'recall').mockImplementation(function (
      this: TurnPathCache,
      ws,
      requested,
    ) {
      const known = recall.call(this, ws, requested);
      if (known) seen.push(fresh(ws, requested).then((now) => [known, now]));
      return known;
    });
    vi.spyOn(TurnPathCache.prototype, 'remember').mockImplementation(function (
      this: TurnPathCache,
      ws,
      requested,
      resolved,
    ) {
      seen.push(fresh(ws, requested).then((now) => [{ ...resolved }, now]));
      remember.call(this, ws, requested, resolved);
    });
    let hits = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(turnArb, { minLength: 1, maxLength: 8 }), async (turns) => {
        seen.length = 0;
        const stale: string[] = [];
        // Anyone may swap folders for links between turns.
        await runTurns(turns, () => true, stale);
        expect(stale).toEqual([]);
        for (const [used, now] of await Promise.all(seen)) expect(used).toEqual(now);
        hits += seen.length;
      }),
      {
        numRuns: 60,
        examples: [
          // A file read while missing, then created by the harness (a spill file) in a run of reads.
          [[read('a/new.txt', [create('a/new.txt')]), read('a/new.txt')]],
          // A command's background job swaps a folder for a link between later turns.
          [
            [
              { calls: [{ tool: 'exec', p: 'b/f.txt' }], between: [] },
              read('a/f.txt', [{ kind: 'to-outside', at: 'a' }]),
              read('a/f.txt'),
            ],
          ],
        ],
      },
    );
    expect(hits).toBeGreaterThan(0);
  });

  it('never let a file tool read or list outside, and commands are checked on fresh answers, whoever swaps (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(turnArb, { minLength: 1, maxLength: 6 }), async (turns) => {
        const stale: string[] = [];
        // An outside actor: swaps at any time.
        const result = await runTurns(turns, () => true, stale);
        expect(stale).toEqual([]);
        for (const message of result.messages)
          if (message.role === 'tool') {
            const text =
              typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
            expect(text).not.toContain('OUTSIDE');
            expect(text).not.toContain('outside-only');
          }
        expect(readdirSync(space.outside).sort()).toEqual(['f.txt', 'outside-only.txt']);
      }),
      {
        numRuns: 40,
        examples: [
          // A folder read, swapped for a link to the outside, then used by a command and a file tool.
          [
            [
              read('a/f.txt', [{ kind: 'to-outside', at: 'a' }]),
              { calls: [{ tool: 'exec', p: 'a/f.txt' }], between: [] },
            ],
          ],
          [[read('a/f.txt', [{ kind: 'to-outside', at: 'a' }]), read('a/f.txt')]],
        ],
      },
    );
  });
});

describe('a background job of a command', () => {
  it('swapping a folder for a link to the outside between turns is caught: the later read is checked afresh', async () => {
    const { ws, outside, root } = space;
    mkdirSync(path.join(ws, 'docs'));
    writeFileSync(path.join(ws, 'docs', 'secret.txt'), 'inside\n');
    writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE\n');
    const go = path.join(root, 'go');
    const read = (id: string) => ({
      id,
      type: 'function' as const,
      function: { name: 'read_file', arguments: '{"path":"docs/secret.txt"}' },
    });
    // Waits for the test's signal, then swaps docs/ for a link to the outside folder, long after its
    // call returned (a script file: the policy cannot see what it does, as with any real job).
    writeFileSync(
      path.join(ws, 'job.sh'),
      `while [ ! -e ${go} ]; do sleep 0.02; done\nrm -r docs && ln -s ${outside} docs\n`,
    );
    const job = 'bash job.sh >/dev/null 2>&1 &';
    const model = new InlineModel(async (_request, index) => {
      if (index === 2) {
        writeFileSync(go, '');
        for (let i = 0; i < 250 && !isLink(path.join(ws, 'docs')); i += 1)
          await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const turns: (RawToolCall[] | undefined)[] = [
        [
          {
            id: 'b1',
            type: 'function',
            function: { name: 'bash', arguments: JSON.stringify({ command: job }) },
          },
        ],
        [read('r1')],
        [read('r2')],
      ];
      return reply(turns[index]);
    });
    const result = await runScript(ws, model, {
      tools: [BUILTIN_TOOLS.read_file!, BUILTIN_TOOLS.bash!],
      sandbox: new LocalSandbox({ allowExec: true }),
      config: { permissions: { mode: 'auto', bash: [{ pattern: '*', action: 'allow' }] } },
    });
    expect(toolResult(result, 'b1').error, toolResult(result, 'b1').content).toBeUndefined();
    expect(toolResult(result, 'r1').content).toContain('inside');
    expect(isLink(path.join(ws, 'docs'))).toBe(true);
    const second = toolResult(result, 'r2');
    expect(second.content).not.toContain('OUTSIDE');
    // Denied by the check (a fresh look at docs/), not refused later by the open of a stale answer.
    expect(second.error?.type, second.content).toBe('path_outside_workspace');
  });
});

describe('a file this sandbox created in an earlier run (a chat)', () => {
  it('replaced by a hard link to an outside file between turns is denied by the check, not read', async () => {
    const { ws, outside } = space;
    writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE\n');
    const sandbox = new LocalSandbox({ allowExec: false });
    const tools = [BUILTIN_TOOLS.read_file!, BUILTIN_TOOLS.write_file!];
    const config = { permissions: { mode: 'auto' as const } };
    const first = await runScript(
      ws,
      [
        {
          tool_calls: [{ id: 'w1', name: 'write_file', arguments: '{"path":"notes.txt","content":"mine"}' }],
        },
        { content: 'ok' },
      ],
      { tools, sandbox, config },
    );
    expect(toolResult(first, 'w1').error).toBeUndefined();
    // The next run of the chat only reads; between its turns someone makes notes.txt a hard link to the outside file.
    const model = new InlineModel((_request, index) => {
      if (index === 1) {
        rmSync(path.join(ws, 'notes.txt'));
        linkSync(path.join(outside, 'secret.txt'), path.join(ws, 'notes.txt'));
      }
      const read = (id: string): RawToolCall[] => [
        { id, type: 'function', function: { name: 'read_file', arguments: '{"path":"notes.txt"}' } },
      ];
      return reply(index === 0 ? read('r1') : index === 1 ? read('r2') : undefined);
    });
    // Headless: the ask a hard-linked read gets is refused (auto mode would approve it, and the read shows the file).
    const second = await runScript(ws, model, {
      tools,
      sandbox,
      config: { permissions: { mode: 'headless' } },
    });
    expect(toolResult(second, 'r1').content).toContain('mine');
    const read = toolResult(second, 'r2');
    expect(read.content).not.toContain('OUTSIDE');
    expect(read.error?.type, read.content).toBe('approval_denied');
    expect(read.content).toContain('hard links');
  });
});
