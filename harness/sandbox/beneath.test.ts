import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendBeneathSync, SYNC_APPEND_MAX_CHARS } from './beneath-append.ts';
import { DESCRIPTOR_PATHS, listBeneath, readBeneath, SYNC_READ_MAX_BYTES, writeBeneath } from './beneath.ts';

let base: string;
let ws: string;
let outside: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-beneath-')));
  ws = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  mkdirSync(path.join(ws, 'docs'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.txt'), 's3cr3t');
  writeFileSync(path.join(ws, 'docs', 'a.md'), 'hello');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const code = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
};

describe('files below the workspace, opened without following links (beneath.ts)', () => {
  it('reads, writes (creating folders) and lists inside', async () => {
    expect((await readBeneath(ws, path.join(ws, 'docs/a.md'))).text).toBe('hello');
    expect(await writeBeneath(ws, path.join(ws, 'new/deep/b.md'), 'x')).toMatchObject({ created: true });
    expect(readFileSync(path.join(ws, 'new/deep/b.md'), 'utf8')).toBe('x');
    expect(await writeBeneath(ws, path.join(ws, 'new/deep/b.md'), 'yz')).toMatchObject({ created: false });
    expect(readFileSync(path.join(ws, 'new/deep/b.md'), 'utf8')).toBe('yz');
    await writeBeneath(ws, path.join(ws, 'new/deep/b.md'), '!', { append: true });
    expect(readFileSync(path.join(ws, 'new/deep/b.md'), 'utf8')).toBe('yz!');
    expect((await listBeneath(ws, path.join(ws, 'docs'))).map((e) => e.name)).toEqual(['a.md']);
  });

  it('a link at any depth below the root fails with ELOOP: a folder link, a file link, a dangling link', async () => {
    symlinkSync(outside, path.join(ws, 'out'));
    symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'docs', 'secret.txt'));
    symlinkSync(path.join(outside, 'new.txt'), path.join(ws, 'dangling.txt'));
    expect(await code(readBeneath(ws, path.join(ws, 'out/secret.txt')))).toBe('ELOOP');
    expect(await code(readBeneath(ws, path.join(ws, 'docs/secret.txt')))).toBe('ELOOP');
    expect(await code(writeBeneath(ws, path.join(ws, 'out/x.txt'), 'OWNED'))).toBe('ELOOP');
    expect(await code(writeBeneath(ws, path.join(ws, 'docs/secret.txt'), 'OWNED'))).toBe('ELOOP');
    expect(await code(writeBeneath(ws, path.join(ws, 'dangling.txt'), 'OWNED'))).toBe('ELOOP');
    expect(await code(listBeneath(ws, path.join(ws, 'out')))).toBe('ELOOP');
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('s3cr3t');
    expect(() => readFileSync(path.join(outside, 'new.txt'))).toThrow();
    expect(() => readFileSync(path.join(outside, 'x.txt'))).toThrow();
  });

  it('a hard-linked file is refused for writes, and for reads unless the caller allows it (EMLINK)', async () => {
    linkSync(path.join(outside, 'secret.txt'), path.join(ws, 'hard.txt'));
    expect(await code(readBeneath(ws, path.join(ws, 'hard.txt')))).toBe('EMLINK');
    expect(await code(writeBeneath(ws, path.join(ws, 'hard.txt'), 'OWNED'))).toBe('EMLINK');
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('s3cr3t');
    expect((await readBeneath(ws, path.join(ws, 'hard.txt'), () => true)).text).toBe('s3cr3t');
  });

  it('small files are read synchronously and the rest asynchronously, with the same answers and checks', async () => {
    const large = 'x'.repeat(SYNC_READ_MAX_BYTES + 5);
    writeFileSync(path.join(ws, 'docs', 'large.txt'), large);
    writeFileSync(path.join(outside, 'large.txt'), large);
    symlinkSync(outside, path.join(ws, 'out'));
    linkSync(path.join(outside, 'large.txt'), path.join(ws, 'hard-large.txt'));
    expect((await readBeneath(ws, path.join(ws, 'docs/large.txt'))).text).toBe(large);
    expect(await code(readBeneath(ws, path.join(ws, 'out/large.txt')))).toBe('ELOOP');
    expect(await code(readBeneath(ws, path.join(ws, 'out/secret.txt')))).toBe('ELOOP');
    expect(await code(readBeneath(ws, path.join(ws, 'hard-large.txt')))).toBe('EMLINK');
    expect(await code(readBeneath(ws, path.join(ws, 'docs')))).toBe('EISDIR');
    expect(await code(readBeneath(ws, path.join(ws, 'docs/missing.md')))).toBe('ENOENT');
    expect(await code(readBeneath(ws, path.join(ws, 'docs/a.md/x')))).toBe('ENOTDIR');
    symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'top-link.txt'));
    expect(await code(readBeneath(ws, path.join(ws, 'top-link.txt')))).toBe('ELOOP');
    expect(await code(readBeneath(ws, `${ws}/top-link.txt/`))).toBe('ELOOP');
    expect((await readBeneath(ws, `${ws}/docs/../docs/./a.md`)).text).toBe('hello');
    expect((await readBeneath(ws, `${ws}//docs/a.md`)).text).toBe('hello');
    expect(await code(readBeneath(ws, `${ws}/docs/../../outside/secret.txt`))).toBe('EACCES');
    const small = await readBeneath(ws, path.join(ws, 'docs/a.md'));
    const big = await readBeneath(ws, path.join(ws, 'docs/large.txt'));
    expect(small.id).toMatch(/^\d+:\d+$/);
    expect(big.id).not.toBe(small.id);
  });

  it("property: a file's text is readFileSync's, on arbitrary bytes (malformed UTF-8, a BOM, split characters, empty, up to the size limit)", async () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc
        .string({ unit: 'binary', maxLength: 200 })
        .map((text) => new Uint8Array(Buffer.from(`\ufeff${text}`))),
      fc
        .tuple(fc.integer({ min: SYNC_READ_MAX_BYTES - 4, max: SYNC_READ_MAX_BYTES + 4 }), fc.uint8Array())
        .map(
          ([size, tail]) => new Uint8Array(Buffer.concat([Buffer.alloc(size - 3, 'é'), Buffer.from(tail)])),
        ),
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(bytes, fc.boolean(), async (content, deep) => {
        n += 1;
        const file = path.join(ws, deep ? 'docs' : '', `f${n}.bin`);
        writeFileSync(file, content);
        expect((await readBeneath(ws, file)).text).toBe(readFileSync(file, 'utf8'));
      }),
      { numRuns: 120 },
    );
  });

  const hasMkfifo = spawnSync('mkfifo', ['--version']).error === undefined;
  it.skipIf(!hasMkfifo)('a FIFO never blocks the thread: it is read when a writer comes', async () => {
    const fifo = path.join(ws, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const read = readBeneath(ws, fifo);
    // Reached only if the read above left the event loop free.
    const writer = spawn('sh', ['-c', `printf piped > '${fifo}'`]);
    const closed = new Promise((resolve) => writer.on('close', resolve));
    expect((await read).text).toBe('piped');
    expect(await closed).toBe(0);
  });

  it('paths outside the root are refused before anything is opened', async () => {
    expect(await code(readBeneath(ws, path.join(outside, 'secret.txt')))).toBe('EACCES');
    expect(await code(writeBeneath(ws, '../outside/x', 'OWNED'))).toBe('EACCES');
  });

  it('property: while another task swaps folders for links to outside, a write never lands outside and never throws anything but a Node error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 3 }),
        async (parts) => {
          const dir = path.join(ws, ...parts.slice(0, -1));
          mkdirSync(dir, { recursive: true });
          let stop = false;
          // The racer: swap the first folder for a link to outside and back, as fast as it can.
          const first = path.join(ws, parts[0]!);
          const racer = (async () => {
            for (let i = 0; !stop && i < 200; i += 1) {
              try {
                renameSync(first, `${first}.moved`);
                symlinkSync(outside, first);
                await new Promise((r) => setImmediate(r));
                rmSync(first);
                renameSync(`${first}.moved`, first);
              } catch {
                /* the other side won this round */
              }
            }
          })();
          const results: string[] = [];
          for (let i = 0; i < 20; i += 1)
            results.push(
              await code(
                writeBeneath(ws, path.join(ws, ...parts, 'f.txt').replace(/\/f\.txt$/, '-f.txt'), 'OWNED'),
              ),
            );
          stop = true;
          await racer;
          rmSync(first, { recursive: true, force: true });
          rmSync(`${first}.moved`, { recursive: true, force: true });
          expect(
            results.every((r) => ['ok', 'ELOOP', 'ENOENT', 'ENOTDIR'].includes(r)),
            results.join(','),
          ).toBe(true);
          const leaked = (await import('node:fs')).readdirSync(outside).filter((f) => f !== 'secret.txt');
          expect(leaked).toEqual([]);
        },
      ),
      { numRuns: 15 },
    );
  });
});

/** The error code of a synchronous call, or 'ok'. */
const codeOf = (run: () => unknown) => {
  try {
    run();
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
};

describe.runIf(DESCRIPTOR_PATHS)('appendBeneathSync', () => {
  beforeEach(() => writeFileSync(path.join(outside, 'log.jsonl'), 'outside\n'));

  it('creates the file and its folders, then appends to it', () => {
    const file = path.join(ws, '.harness-bench/sessions/s.jsonl');
    expect(appendBeneathSync(ws, file, 'a\n')).toBe(true);
    expect(appendBeneathSync(ws, file, 'é\n')).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('a\né\n');
  });

  it('refuses a link at any depth, writing nothing outside, like writeBeneath', async () => {
    symlinkSync(outside, path.join(ws, '.harness-bench'));
    const file = path.join(ws, '.harness-bench/log.jsonl');
    expect(codeOf(() => appendBeneathSync(ws, file, 'OWNED\n'))).toBe('ELOOP');
    let asyncCode = 'ok';
    await writeBeneath(ws, file, 'OWNED\n', { append: true }).catch((e: { code: string }) => {
      asyncCode = e.code;
    });
    expect(asyncCode).toBe('ELOOP');
    rmSync(path.join(ws, '.harness-bench'));
    mkdirSync(path.join(ws, '.harness-bench'));
    symlinkSync(path.join(outside, 'log.jsonl'), file);
    expect(codeOf(() => appendBeneathSync(ws, file, 'OWNED\n'))).toBe('ELOOP');
    expect(readFileSync(path.join(outside, 'log.jsonl'), 'utf8')).toBe('outside\n');
  });

  it('refuses a hard-linked file and a folder', () => {
    const file = path.join(ws, 'log.jsonl');
    linkSync(path.join(outside, 'log.jsonl'), file);
    expect(codeOf(() => appendBeneathSync(ws, file, 'OWNED\n'))).toBe('EMLINK');
    expect(readFileSync(path.join(outside, 'log.jsonl'), 'utf8')).toBe('outside\n');
    mkdirSync(path.join(ws, 'dir.jsonl'));
    expect(codeOf(() => appendBeneathSync(ws, path.join(ws, 'dir.jsonl'), 'x'))).not.toBe('ok');
  });

  it('leaves a long text, the root itself and a path outside to the caller or an error', () => {
    expect(appendBeneathSync(ws, path.join(ws, 'big'), 'x'.repeat(SYNC_APPEND_MAX_CHARS + 1))).toBe(false);
    expect(appendBeneathSync(ws, ws, 'x')).toBe(false);
    expect(codeOf(() => appendBeneathSync(ws, path.join(outside, 'log.jsonl'), 'x'))).toBe('EACCES');
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
    expect(codeOf(() => appendBeneathSync(ws, fifo, 'x\n'))).toBe('ENXIO');
  });
});
