import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendBeneathSync, SYNC_APPEND_MAX_CHARS } from './beneath-append.ts';
import { DESCRIPTOR_PATHS, writeBeneath } from './beneath.ts';

let base: string;
let ws: string;
let outside: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-append-')));
  ws = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'log.jsonl'), 'outside\n');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** The error code of a call, or 'ok'. */
const code = (run: () => unknown) => {
  try {
    run();
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
};

describe.runIf(DESCRIPTOR_PATHS)('appendBeneathSync', () => {
  it('creates the file and its folders, then appends to it', () => {
    const file = path.join(ws, '.harness-bench/sessions/s.jsonl');
    expect(appendBeneathSync(ws, file, 'a\n')).toBe(true);
    expect(appendBeneathSync(ws, file, 'é\n')).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('a\né\n');
  });

  it('refuses a link at any depth, writing nothing outside, like writeBeneath', async () => {
    symlinkSync(outside, path.join(ws, '.harness-bench'));
    const file = path.join(ws, '.harness-bench/log.jsonl');
    expect(code(() => appendBeneathSync(ws, file, 'OWNED\n'))).toBe('ELOOP');
    let asyncCode = 'ok';
    await writeBeneath(ws, file, 'OWNED\n', { append: true }).catch((e: { code: string }) => {
      asyncCode = e.code;
    });
    expect(asyncCode).toBe('ELOOP');
    rmSync(path.join(ws, '.harness-bench'));
    mkdirSync(path.join(ws, '.harness-bench'));
    symlinkSync(path.join(outside, 'log.jsonl'), file);
    expect(code(() => appendBeneathSync(ws, file, 'OWNED\n'))).toBe('ELOOP');
    expect(readFileSync(path.join(outside, 'log.jsonl'), 'utf8')).toBe('outside\n');
  });

  it('refuses a hard-linked file and a folder', () => {
    const file = path.join(ws, 'log.jsonl');
    linkSync(path.join(outside, 'log.jsonl'), file);
    expect(code(() => appendBeneathSync(ws, file, 'OWNED\n'))).toBe('EMLINK');
    expect(readFileSync(path.join(outside, 'log.jsonl'), 'utf8')).toBe('outside\n');
    mkdirSync(path.join(ws, 'dir.jsonl'));
    expect(code(() => appendBeneathSync(ws, path.join(ws, 'dir.jsonl'), 'x'))).not.toBe('ok');
  });

  it('leaves a long text, the root itself and a path outside to the caller or an error', () => {
    expect(appendBeneathSync(ws, path.join(ws, 'big'), 'x'.repeat(SYNC_APPEND_MAX_CHARS + 1))).toBe(false);
    expect(appendBeneathSync(ws, ws, 'x')).toBe(false);
    expect(code(() => appendBeneathSync(ws, path.join(outside, 'log.jsonl'), 'x'))).toBe('EACCES');
  });

  it('any sequence of appends leaves the file writeBeneath leaves', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(fc.constantFrom('a.jsonl', 'd/b.jsonl', 'd/e/c.jsonl'), fc.string({ unit: 'grapheme' })),
          {
            maxLength: 8,
          },
        ),
        async (appends) => {
          const one = mkdtempSync(path.join(base, 'one-'));
          const two = mkdtempSync(path.join(base, 'two-'));
          for (const [name, text] of appends) {
            if (text === '') continue;
            expect(appendBeneathSync(one, path.join(one, name), text)).toBe(true);
            await writeBeneath(two, path.join(two, name), text, { append: true });
          }
          for (const name of ['a.jsonl', 'd/b.jsonl', 'd/e/c.jsonl']) {
            const read = (root: string) => {
              try {
                return readFileSync(path.join(root, name), 'utf8');
              } catch {
                return undefined;
              }
            };
            expect(read(one)).toBe(read(two));
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe.runIf(DESCRIPTOR_PATHS)('appendBeneathSync on a FIFO', () => {
  it('refuses it at once instead of blocking the thread', () => {
    const fifo = path.join(ws, 'log.jsonl');
    const made = spawnSync('mkfifo', [fifo]);
    if (made.status !== 0) return; // no mkfifo here: nothing to check
    expect(code(() => appendBeneathSync(ws, fifo, 'x\n'))).toBe('ENXIO');
  });
});
