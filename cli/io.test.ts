/**
 * The CLI's process streams: a reader that goes away (`| head`) ends the command quietly, never
 * with Node's unhandled-'error' stack; any other stream error still surfaces.
 */
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { endQuietlyOnBrokenPipe } from './io.ts';

describe('endQuietlyOnBrokenPipe', () => {
  it('exits on EPIPE and rethrows any other error', () => {
    const stream = new EventEmitter();
    let exits = 0;
    endQuietlyOnBrokenPipe(stream, () => {
      exits += 1;
    });
    stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(exits).toBe(1);
    expect(() => stream.emit('error', Object.assign(new Error('disk'), { code: 'EIO' }))).toThrow('disk');
    expect(exits).toBe(1);
  });

  it('a command whose output is cut short (| head) prints no stack trace', async () => {
    const bin = path.resolve(import.meta.dirname, '../bin/harness-bench.js');
    // `--help` of every command is long enough to outlast one read when the reader closes at once.
    const child = spawn(process.execPath, [bin, 'run', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toMatch(/EPIPE|Unhandled 'error' event|at /);
    expect(code).toBe(0);
  }, 60_000);
});
