/**
 * The workspace tools the shipped JavaScript adapters give their harness, written the simplest
 * faithful way a user of that library would write them: paths resolved against the workspace
 * (no confinement), `bash` through child_process with cwd = the workspace and NO sandbox. They
 * exist so a scenario's tool calls do something real; what is scored is how the harness around
 * them handles the model's faults, not these tools.
 *
 * `implementations[name](args, { workspace, signal })` returns the tool's text output (string)
 * or throws an Error whose message is the failure (each library turns a throw into its own
 * error shape, which is part of what the bench observes).
 */
import { exec } from 'node:child_process';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** The command timeout of `bash`, ms. */
const BASH_TIMEOUT_MS = 30_000;

async function readFileTool(args, { workspace }) {
  const text = await readFile(resolve(workspace, String(args.path)), 'utf8');
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const first = Math.max(1, Number(args.offset ?? 1)) - 1;
  const limit = Math.max(1, Number(args.limit ?? 2000));
  return lines
    .slice(first, first + limit)
    .map((line, i) => `${first + i + 1}\t${line}`)
    .join('\n');
}

async function writeFileTool(args, { workspace }) {
  const target = resolve(workspace, String(args.path));
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, String(args.content ?? ''), 'utf8');
  return `wrote ${args.path}: ${Buffer.byteLength(String(args.content ?? ''), 'utf8')} bytes`;
}

async function listTool(args, { workspace }) {
  const dir = resolve(workspace, String(args.path ?? '.'));
  const names = (await readdir(dir)).sort();
  const lines = [];
  for (const name of names) {
    const info = await stat(resolve(dir, name)).catch(() => undefined);
    lines.push(info?.isDirectory() ? `${name}/` : name);
  }
  return lines.length === 0 ? `${args.path ?? '.'} is empty` : lines.join('\n');
}

async function strReplaceTool(args, { workspace }) {
  const target = resolve(workspace, String(args.path));
  const text = await readFile(target, 'utf8');
  const count = text.split(String(args.old_str)).length - 1;
  if (count !== 1) throw new Error(`old_str occurs ${count} times in ${args.path}; it must occur once`);
  await writeFile(
    target,
    text.replace(String(args.old_str), () => String(args.new_str ?? '')),
    'utf8',
  );
  return `edited ${args.path}`;
}

function bashTool(args, { workspace, signal }) {
  return new Promise((resolvePromise) => {
    exec(
      String(args.command),
      { cwd: workspace, shell: '/bin/bash', timeout: BASH_TIMEOUT_MS, signal, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolvePromise(`exit code ${code}\n${stdout}${stderr ? `\nstderr:\n${stderr}` : ''}`.trimEnd());
      },
    );
  });
}

/** Our tool names → implementation. */
export const implementations = {
  read_file: readFileTool,
  write_file: writeFileTool,
  list_files: listTool,
  list_dir: listTool,
  str_replace: strReplaceTool,
  bash: bashTool,
};

/** The error of a declared tool this module has no implementation of (a scenario's scripted tool). */
export function notImplemented(name) {
  return new Error(`${name} is declared but this adapter has no implementation of it`);
}

/**
 * Every tool of `input.tools`, each `{ name, description, parameters, run }`. `input.tools` names
 * are already the harness's own (after the adapter file's mapping); the shipped adapters map
 * nothing, so they are ours. A declared tool with no implementation here (a scenario's scripted
 * `fakeTools`, e.g. `web_fetch`) is still offered, and its `run` throws {@link notImplemented}.
 */
export function workspaceTools(input) {
  return (input.tools ?? []).map((t) => ({
    name: t.name,
    description: t.description ?? '',
    parameters: t.parameters ?? { type: 'object', properties: {} },
    run: async (args) => {
      const implementation = Object.hasOwn(implementations, t.name) ? implementations[t.name] : undefined;
      if (!implementation) throw notImplemented(t.name);
      return implementation(args ?? {}, { workspace: input.workspace, signal: input.signal });
    },
  }));
}
