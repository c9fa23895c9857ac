/**
 * Re-records `recordings/examples/stub-read-then-write-asked.json` with `harness-bench record`
 * against the local stub server of the tests (no network, no key): run it when a deliberate
 * change of the harness's requests makes the example diverge, then review the diff.
 *
 *     npx tsx scripts/record-example.ts
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../cli/main.ts';
import { json, sse, startStub, textChunks, toolCallChunks } from '../harness/testing/stub-server.ts';

/** The example cassette's path. */
export const EXAMPLE_CASSETTE = fileURLToPath(
  new URL('../recordings/examples/stub-read-then-write-asked.json', import.meta.url),
);

/** What the example's `meta.description` says. */
export const EXAMPLE_DESCRIPTION =
  'Recorded by `harness-bench record` from the local OpenAI-compatible stub server the tests use ' +
  '(harness/testing/stub-server.ts), not from a real model: a 429 with retry-after, a streamed ' +
  'read_file, a streamed write_file that configs/default.json asks about (denied: record has nobody' +
  ' to ask), and a streamed answer. Replays with exit 0 under configs/default.json; under ' +
  'configs/permissive.json the write is allowed and the replay names that as the first divergence. ' +
  'Re-record with: npx tsx scripts/record-example.ts';

/** Records the example; resolves with the exit code of `record`. */
export async function recordExample(): Promise<number> {
  const workspace = mkdtempSync(path.join(tmpdir(), 'hb-example-'));
  writeFileSync(path.join(workspace, 'notes.txt'), 'buy milk\ncall the plumber\n');
  const stub = await startStub();
  stub.queue.push(
    json(
      429,
      { error: { message: 'Rate limit reached for requests', type: 'rate_limit_error' } },
      { 'retry-after': '0', 'x-ratelimit-remaining-requests': '0' },
    ),
    sse(toolCallChunks('call_notes1', 'read_file', '{"path":"notes.txt"}')),
    sse(
      toolCallChunks(
        'call_sum1',
        'write_file',
        '{"path":"summary.txt","content":"- buy milk\\n- call the plumber\\n"}',
      ),
    ),
    sse(
      textChunks(
        'I could not write summary.txt: the write was not approved. The notes say: buy milk, call the plumber.',
      ),
    ),
  );
  try {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NO_COLOR: '1' };
    const args = [
      'record',
      '--base-url',
      stub.baseURL,
      '--model',
      'stub-model',
      '--task',
      'Summarise notes.txt into summary.txt as a bullet list.',
      '-w',
      workspace,
      '--out',
      EXAMPLE_CASSETTE,
      '--force',
    ];
    const code = await main(
      [
        'node',
        'harness-bench',
        ...args,
        '--title',
        'stub server: read a file, then a write that asks (denied when recorded headless)',
      ],
      {
        stdout: (t) => process.stdout.write(t),
        stderr: (t) => process.stderr.write(t),
        cwd: workspace,
        env,
        isTTY: false,
      },
    );
    if (code === 0) {
      const cassette = JSON.parse(readFileSync(EXAMPLE_CASSETTE, 'utf8')) as {
        meta: Record<string, unknown>;
      };
      cassette.meta.description = EXAMPLE_DESCRIPTION;
      writeFileSync(EXAMPLE_CASSETTE, `${JSON.stringify(cassette, null, 2)}\n`);
    }
    return code;
  } finally {
    await stub.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  process.exitCode = await recordExample();
