/**
 * Runs one host process for a sandbox: a timeout and an abort signal kill its whole process
 * group, and stdout/stderr are collected with a byte cap (head and tail kept, the middle counted
 * and marked), so a command that prints gigabytes cannot exhaust the harness's memory.
 */
import { spawn } from 'node:child_process';
import type { ExecResult } from './types.ts';

/** Bytes of each stream kept by default: the first and the last half of this many. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/** Options of {@link runProcess}. `timeoutMs` in milliseconds, `maxOutputBytes` per stream. */
export interface ProcessOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  /** @default {@link DEFAULT_MAX_OUTPUT_BYTES} */
  maxOutputBytes?: number;
  /** Run the process as this user (the caller must be root). */
  uid?: number;
  gid?: number;
}

/**
 * Keeps the first and last `max / 2` bytes of a stream and counts what lies between.
 * `text()` marks a cut as `[… N bytes elided …]`.
 */
export class BoundedCollector {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** Bytes dropped from the middle. */
  dropped = 0;
  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    const headRoom = Math.floor(this.max / 2) - this.headBytes;
    if (headRoom > 0) {
      const part = chunk.subarray(0, headRoom);
      this.head.push(part);
      this.headBytes += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    const tailMax = this.max - Math.floor(this.max / 2);
    if (this.tailBytes > tailMax) {
      const joined = Buffer.concat(this.tail);
      const excess = joined.length - tailMax;
      this.dropped += excess;
      this.tail = [joined.subarray(excess)];
      this.tailBytes = tailMax;
    }
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    return this.dropped > 0 ? `${head}\n[… ${this.dropped} bytes elided …]\n${tail}` : head + tail;
  }
}

/**
 * Spawns `file` with `args` in its own process group and resolves with its exit code and output.
 * On timeout (`timedOut: true`) or abort the whole group gets SIGKILL. Resolves once the process
 * has exited and its streams are closed; after a kill, output still held open by an escaped
 * descendant is abandoned rather than waited for.
 * @throws (rejects) only when the process cannot be spawned (e.g. `ENOENT` for a missing binary).
 */
export function runProcess(
  file: string,
  args: readonly string[],
  options: ProcessOptions,
): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const max = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.uid !== undefined ? { uid: options.uid } : {}),
      ...(options.gid !== undefined ? { gid: options.gid } : {}),
    });
    const stdout = new BoundedCollector(max);
    const stderr = new BoundedCollector(max);
    let timedOut = false;
    let killed = false;
    let settled = false;
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    const kill = () => {
      killed = true;
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
    const onAbort = () => kill();
    if (options.signal?.aborted) kill();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (code: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ exitCode: code, stdout: stdout.text(), stderr: stderr.text(), timedOut });
    };
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('exit', (code) => {
      if (!killed) return;
      // A descendant that left the process group may keep the pipes open: do not wait for it.
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(code);
      }, 100).unref();
    });
    child.on('close', (code) => finish(code));
  });
}
