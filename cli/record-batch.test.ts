/**
 * `record --tasks`: several live sessions against the 127.0.0.1 stub, at most `--concurrency` at
 * once, request starts spaced to `--rate`, every session held after a 429 until its
 * `retry-after`; one cassette per task that replays offline; bad input is exit 2 before any
 * request.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  json,
  type Responder,
  sse,
  textChunks,
  useStub,
  type StubServer,
} from '../harness/testing/stub-server.ts';
import { main } from './main.ts';

const getStub = useStub();
let stub: StubServer;
beforeEach(() => {
  stub = getStub();
});

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function project(tasks: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hb-rec-batch-'));
  dirs.push(dir);
  writeFileSync(path.join(dir, 'notes.txt'), 'remember the milk\n');
  writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify(tasks));
  return dir;
}

async function cli(cwd: string, ...args: string[]) {
  let out = '';
  let err = '';
  const code = await main(['node', 'harness-bench', ...args], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    cwd,
    env: { NO_COLOR: '1' },
    isTTY: false,
  });
  return { code, out, err };
}

/** Answers after `delayMs`, counting requests in flight and when each arrived (performance.now, ms). */
function traffic(delayMs: number) {
  const log = { inFlight: 0, maxInFlight: 0, arrivals: [] as number[], statuses: [] as number[] };
  const answer =
    (first?: Responder): Responder =>
    async (req, res, body) => {
      log.arrivals.push(performance.now());
      log.inFlight += 1;
      log.maxInFlight = Math.max(log.maxInFlight, log.inFlight);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      log.inFlight -= 1;
      const responder = first ?? sse(textChunks('Done.'));
      log.statuses.push(first ? 429 : 200);
      await responder(req, res, body);
    };
  return { log, answer };
}

const base = (dir: string) => [
  'record',
  '--base-url',
  stub.baseURL,
  '--model',
  'stub-model',
  '--tasks',
  path.join(dir, 'tasks.json'),
];

describe('record --tasks', () => {
  it('records every task, at most --concurrency at once, every session held after a 429 until retry-after', async () => {
    const dir = project([
      'Summarise notes.txt.',
      { id: 'second', task: 'List the files.', title: 'files' },
      'Say hi.',
    ]);
    const { log, answer } = traffic(150);
    stub.queue.push(answer(json(429, { error: { message: 'slow down' } }, { 'retry-after': '3' })));
    for (let i = 0; i < 3; i += 1) stub.queue.push(answer());
    const result = await cli(dir, ...base(dir), '--out', 'cassettes', '--concurrency', '2');
    expect(result.err).toMatch(/\[3\/3\] ✓/);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/recorded 3 of 3 tasks into cassettes: 4 requests, 1 rate-limited \(429\)/);
    for (const id of ['task-1', 'second', 'task-3'])
      expect(existsSync(path.join(dir, 'cassettes', `${id}.json`))).toBe(true);
    expect(log.maxInFlight).toBe(2);
    // The 429 was answered at arrivals[0] + 150 ms; nothing started within its retry-after (3 s) after that.
    const refusedAt = log.arrivals[0]! + 150;
    const later = log.arrivals.filter((t) => t > refusedAt);
    expect(later.length).toBeGreaterThanOrEqual(2);
    for (const t of later) expect(t - refusedAt).toBeGreaterThanOrEqual(2950);
    const replay = await cli(dir, 'replay', path.join('cassettes', 'second.json'));
    expect(replay.code).toBe(0);
  }, 30_000);

  it('--rate spaces request starts over all sessions', async () => {
    const dir = project(['a', 'b', 'c', 'd']);
    const { log, answer } = traffic(0);
    for (let i = 0; i < 4; i += 1) stub.queue.push(answer());
    const result = await cli(dir, ...base(dir), '--out', 'out', '--concurrency', '4', '--rate', '300/min');
    expect(result.code).toBe(0);
    const gaps = log.arrivals.slice(1).map((t, i) => t - log.arrivals[i]!);
    expect(gaps).toHaveLength(3);
    // Started 200 ms apart; arrivals at the stub jitter a little with connection set-up.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(120);
    expect(log.arrivals[3]! - log.arrivals[0]!).toBeGreaterThanOrEqual(540);
  });

  it('bad input is exit 2 with every problem, before any request', async () => {
    const dir = project([
      { id: 'x', task: 'one' },
      { id: 'x', task: '' },
      { id: 'bad id', task: 't', extra: 1 },
      42,
    ]);
    writeFileSync(path.join(dir, 'taken.json'), '{}');
    const result = await cli(dir, ...base(dir), '--out', '.', '--rate', 'fast');
    expect(result.code).toBe(2);
    for (const problem of [
      /tasks\.json: \/1\/id: duplicate id "x"/,
      /tasks\.json: \/1\/task: a non-empty task text/,
      /tasks\.json: \/2\/extra: unknown key/,
      /tasks\.json: \/2\/id: an id of letters/,
      /tasks\.json: \/3: a task is a string or an object/,
      /--rate fast: expected requests per time/,
    ])
      expect(result.err).toMatch(problem);
    expect(stub.received).toHaveLength(0);
    const both = await cli(dir, ...base(dir), '--task', 't', '--out', 'o');
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/give --task TEXT \(one task\) or --tasks FILE \(several\), not both/);
    const exists = project(['t']);
    writeFileSync(path.join(exists, 'task-1.json'), '{}');
    const taken = await cli(exists, ...base(exists), '--out', '.');
    expect(taken.code).toBe(2);
    expect(taken.err).toMatch(/task-1\.json: exists; cassettes are evidence/);
  });
});
