/** Runs the CLI in-process with captured output, for the CLI's tests. */
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CliIo } from './io.ts';
import { main } from './main.ts';

/** Runs `harness-bench ARGS…` in `cwd`; resolves with the exit code and what was printed. */
export async function cli(
  cwd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    cwd,
    env: { NO_COLOR: '1', ...env },
    isTTY: false,
  };
  const code = await main(['node', 'harness-bench', ...args], io);
  return { code, out, err };
}

/** A fresh temp folder. */
export function tempDir(prefix = 'hb-cli-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Writes files (path → text or JSON value) under `dir`, creating folders. */
export function put(dir: string, files: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(files)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  }
}

/** A scenario that passes: a read, then an answer. */
export function scenario(id: string, tags: string[] = [], extra: Record<string, unknown> = {}) {
  return {
    id,
    tags,
    task: 'What does a.txt say?',
    tools: ['read_file'],
    workspace: { files: { 'a.txt': 'hello\n' } },
    model: [
      { tool_calls: [{ id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' }] },
      { content: 'It says hello.' },
    ],
    expect: { stopReason: 'final_answer', executed: ['call_1'] },
    ...extra,
  };
}

/** A stack trace line (`    at fn (file.ts:1:2)`): bad input never prints one. */
export const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;
