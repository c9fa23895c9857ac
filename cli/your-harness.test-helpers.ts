/**
 * Helpers of the end-to-end journey of a user's own harness (`cli/your-harness.test.ts`,
 * `docs/your-harness.md`): the user's project (the two versions of the Python harness in
 * `cli/fixtures/your-harness/`, copied into a temp folder), the CLI started as a child process
 * the way a user starts it (`node bin/harness-bench.js …`), the live model the recording talks to
 * (the stub server on 127.0.0.1), and readers for what the commands write.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../eval/config-load.ts';
import type { ResultsFile } from '../eval/results.ts';
import { completion, json, startStub, type StubServer } from '../harness/testing/stub-server.ts';

/** The user's harness: `agent_v1.py`, `agent_v2.py` and their adapter files `v1.json`, `v2.json`. */
export const FIXTURES = path.join(PACKAGE_ROOT, 'cli/fixtures/your-harness');

/** Whether `python3` runs here (the harness of the journey is written in Python). */
export const HAS_PYTHON = spawnSync('python3', ['--version']).status === 0;

/** A new temp folder holding a copy of the user's harness files: the user's project. */
export function userProject(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hb-your-harness-'));
  cpSync(FIXTURES, dir, { recursive: true });
  return dir;
}

/**
 * Runs `harness-bench ARGS…` in `cwd` as a child process (asynchronously, so a stub server of
 * this process can answer it), with colours off and a wide table; resolves with its exit code and
 * output. `CI` is left out so the CLI behaves as on a user's machine.
 */
export function bench(
  cwd: string,
  args: readonly string[],
): Promise<{ code: number | null; out: string; err: string }> {
  const { CI: _ci, ...env } = process.env;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'bin/harness-bench.js'), ...args], {
      cwd,
      env: { ...env, NO_COLOR: '1', COLUMNS: '160' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** Reads `results.json` of a run folder. */
export function readResults(dir: string): ResultsFile {
  return JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as ResultsFile;
}

/** `id → status` of every case of `results` under one column (configuration or harness). */
export function statuses(results: ResultsFile, column: string): Record<string, string> {
  return Object.fromEntries(results.cases.filter((c) => c.config === column).map((c) => [c.id, c.status]));
}

/**
 * The transitions `report.html` lists in its comparisons section, as `id → kind` (`regression`,
 * `fix`, `behaviour`): read from the page's markup, as a reader sees them.
 */
export function htmlTransitions(html: string): Record<string, string> {
  const section = /<details class="transitions">([\s\S]*?)<\/details>/.exec(html)?.[1] ?? '';
  return Object.fromEntries(
    [...section.matchAll(/<li><span class="mono">([^<]+)<\/span> <b>([^<]+)<\/b>/g)].map((m) => [
      m[1]!,
      m[2]!,
    ]),
  );
}

/** The vitest file of `docs/your-harness.md` (its one `ts` block), as a user copies it. */
export function docTestFile(): string {
  const page = readFileSync(path.join(PACKAGE_ROOT, 'docs/your-harness.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(page)?.[1];
  if (!block) throw new Error('docs/your-harness.md has no ts block');
  return block;
}

/** A tool call of a stub completion. */
const call = (id: string, name: string, args: string) => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

/**
 * The "live provider" of the recording step: a stub server on 127.0.0.1 that answers one session
 * of the task "Write hello to greeting.txt.": a `write_file` call whose arguments are cut off (not
 * JSON), the same call whole, then a text answer.
 */
export async function liveModel(): Promise<StubServer> {
  const stub = await startStub();
  stub.queue.push(
    json(
      200,
      completion(
        {
          content: null,
          tool_calls: [call('call_w1', 'write_file', '{"path": "greeting.txt", "content": "hel')],
        },
        'tool_calls',
      ),
    ),
    json(
      200,
      completion(
        {
          content: null,
          tool_calls: [call('call_w2', 'write_file', '{"path": "greeting.txt", "content": "hello\\n"}')],
        },
        'tool_calls',
      ),
    ),
    json(200, completion({ content: 'I wrote hello to greeting.txt.' })),
  );
  return stub;
}
