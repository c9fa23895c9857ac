/**
 * `LocalSandbox`: files through `node:fs` on the real workspace, commands through `sh -c` with
 * no isolation. It is the `sandbox.kind: "none"` implementation; commands run only when the
 * configuration asks for `none` explicitly (otherwise `exec` rejects with
 * `SandboxUnavailableError`: the harness fails closed and never runs a command unboxed).
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SandboxUnavailableError, type DirEntry, type ExecOptions, type ExecResult, type Sandbox } from './types.ts';

/** Environment variables a command may see; everything else (keys, tokens) is dropped. */
export const ENV_ALLOWLIST = ['PATH', 'LANG', 'LC_ALL', 'TERM', 'TZ', 'HOME', 'USER', 'SHELL', 'TMPDIR'];

/** Keeps only allowlisted variables of `env`. */
export function scrubEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ENV_ALLOWLIST) if (env[key] !== undefined) out[key] = env[key]!;
  return out;
}

/** Files on the real file system; commands only when `allowExec` (configuration `sandbox.kind: "none"`). */
export class LocalSandbox implements Sandbox {
  readonly kind = 'none';
  constructor(private readonly options: { allowExec: boolean }) {}

  async readFile(file: string): Promise<string> {
    return readFile(file, 'utf8');
  }

  async writeFile(file: string, content: string): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content, 'utf8');
  }

  async list(dir: string): Promise<DirEntry[]> {
    const entries = await readdir(dir, { withFileTypes: true });
    const out: DirEntry[] = [];
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const kind = entry.isSymbolicLink() ? 'symlink' : entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : 'other';
      const item: DirEntry = { name: entry.name, kind };
      if (kind === 'file') item.size = (await stat(path.join(dir, entry.name))).size;
      out.push(item);
    }
    return out;
  }

  async realpath(file: string): Promise<string> {
    return realpath(file);
  }

  async exists(file: string): Promise<boolean> {
    try {
      await stat(file);
      return true;
    } catch {
      return false;
    }
  }

  exec(command: string, options: ExecOptions): Promise<ExecResult> {
    if (!this.options.allowExec)
      return Promise.reject(
        new SandboxUnavailableError(
          'no sandbox is available to run commands',
          'install bubblewrap (apt-get install -y bubblewrap) or set sandbox.kind to "none" explicitly',
        ),
      );
    return new Promise((resolve, reject) => {
      const child = spawn('sh', ['-c', command], {
        cwd: options.cwd,
        env: options.env ?? scrubEnvironment(process.env),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let timedOut = false;
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const kill = () => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, options.timeoutMs);
      options.signal?.addEventListener('abort', kill);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ exitCode: code, stdout, stderr, timedOut });
      });
    });
  }
}
