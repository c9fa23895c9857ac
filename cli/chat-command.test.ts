import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../harness/model/types.ts';
import {
  chunk,
  sse,
  useStub,
  textChunks,
  toolCallChunks,
  type Responder,
  type StubServer,
} from '../harness/testing/stub-server.ts';
import { chatCommand, type ChatFlags } from './chat-command.ts';
import type { CliIo } from './io.ts';
import { replayCommand } from './replay-command.ts';

const getStub = useStub();
let stub: StubServer;
beforeEach(() => {
  stub = getStub();
});

/** Polls until `predicate` holds; fails with what was seen after 10 s (a safety valve, not a timing assertion). */
async function until(predicate: () => boolean, seen: () => string): Promise<void> {
  for (let waited = 0; !predicate(); waited += 5) {
    if (waited > 10_000) throw new Error(`timed out waiting; output so far:\n${seen()}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A chat driven through its input stream, with Ctrl-C as an emitter. */
function startChat(flags: ChatFlags = {}, setup: { workspace?: string; home?: string } = {}) {
  const workspace = setup.workspace ?? realpathSync(mkdtempSync(path.join(tmpdir(), 'hb-chat-ws-')));
  if (!setup.workspace) writeFileSync(path.join(workspace, 'a.txt'), 'alpha\n');
  const home = setup.home ?? mkdtempSync(path.join(tmpdir(), 'hb-chat-home-'));
  const input = new PassThrough();
  const output = new PassThrough();
  const interrupts = new EventEmitter();
  let out = '';
  let err = '';
  output.on('data', (data: Buffer) => (out += data.toString('utf8')));
  const io: CliIo = {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    cwd: workspace,
    env: { NO_COLOR: '1', HARNESS_BENCH_HOME: home },
    isTTY: false,
  };
  const done = chatCommand({ baseUrl: stub.baseURL, model: 'stub-model', ...flags }, io, {
    input,
    output,
    terminal: false,
    interrupts,
  });
  const seen = () => `${out}\n--- stderr ---\n${err}`;
  return {
    workspace,
    home,
    done,
    out: () => out,
    err: () => err,
    type: (line: string) => void input.write(`${line}\n`),
    end: () => void input.end(),
    interrupt: () => void interrupts.emit('SIGINT'),
    until: (predicate: () => boolean) => until(predicate, seen),
    io,
  };
}

/** Every tool call of every assistant message is answered by a tool message (a valid transcript). */
function answered(messages: ChatMessage[]): boolean {
  const ids = messages.flatMap((m) => (m.role === 'assistant' ? (m.tool_calls ?? []).map((c) => c.id) : []));
  return ids.every((id) => messages.some((m) => m.role === 'tool' && m.tool_call_id === id));
}

const messagesOf = (i: number) => stub.received[i]!.body.messages as ChatMessage[];

/** A stream that sends one chunk and then holds the connection open until the client goes away. */
const hanging: Responder = (req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(`data: ${JSON.stringify(chunk({ role: 'assistant', content: 'Thinking' }))}\n\n`);
  return new Promise<void>((resolve) => req.socket.on('close', () => resolve()));
};

describe('harness-bench chat', () => {
  it('continues one conversation line after line, asks for approval with the resolved call, and resumes by id', async () => {
    stub.queue.push(
      sse(toolCallChunks('call_w1', 'write_file', '{"path":"notes/todo.txt","content":"milk"}')),
      sse(textChunks('Saved.')),
      sse(textChunks('You asked me to save milk.')),
    );
    const chat = startChat();
    chat.type('Save "milk" to notes/todo.txt');
    await chat.until(() => chat.out().includes('approve? [y]es'));
    expect(chat.out()).toContain('approval needed: write_file (write) call call_w1');
    expect(chat.out()).toContain(`write: ${path.join(chat.workspace, 'notes/todo.txt')}`);
    expect(chat.out()).toMatch(/why: .*rule effects:write/);
    chat.type('y');
    await chat.until(() => chat.out().includes('Saved.'));
    expect(readFileSync(path.join(chat.workspace, 'notes/todo.txt'), 'utf8')).toBe('milk');
    expect(chat.err()).toContain('✓ write_file({"path":"notes/todo.txt","content":"milk"})');
    chat.type('What did I ask?');
    await chat.until(() => chat.out().includes('You asked me to save milk.'));
    chat.type('/exit');
    expect(await chat.done).toBe(0);
    const third = messagesOf(2);
    expect(third.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(third.at(-1)).toEqual({ role: 'user', content: 'What did I ask?' });

    const id = /session (ses_\w+)/.exec(chat.out())![1]!;
    expect(existsSync(path.join(chat.home, 'sessions', `${id}.jsonl`))).toBe(true);
    stub.queue.push(sse(textChunks('Milk, earlier.')));
    const resumed = startChat({ resume: id }, { workspace: chat.workspace, home: chat.home });
    await resumed.until(() => resumed.out().includes('resumed (7 messages)'));
    resumed.type('Remind me.');
    await resumed.until(() => resumed.out().includes('Milk, earlier.'));
    resumed.end();
    expect(await resumed.done).toBe(0);
    expect(messagesOf(3).map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
  });

  it('"always" approves the shape for the rest of the session: the next matching write does not ask', async () => {
    stub.queue.push(
      sse(toolCallChunks('call_w1', 'write_file', '{"path":"notes/a.txt","content":"1"}')),
      sse(textChunks('One.')),
      sse(toolCallChunks('call_w2', 'write_file', '{"path":"notes/b.txt","content":"2"}')),
      sse(textChunks('Two.')),
    );
    const chat = startChat();
    chat.type('write a');
    await chat.until(() => chat.out().includes('approve? [y]es'));
    chat.type('a');
    await chat.until(() => chat.out().includes('shape to approve for write_file [notes/*]: '));
    chat.type('');
    await chat.until(() => chat.out().includes('One.'));
    chat.type('write b');
    await chat.until(() => chat.out().includes('Two.'));
    chat.end();
    expect(await chat.done).toBe(0);
    expect(chat.out().match(/approve\? \[y\]es/g)).toHaveLength(1);
    expect(readFileSync(path.join(chat.workspace, 'notes/b.txt'), 'utf8')).toBe('2');
  });

  it('Ctrl-C during a model call cancels the turn (human_cancelled) and the conversation goes on', async () => {
    stub.queue.push(hanging, sse(textChunks('Back.')));
    const chat = startChat();
    chat.type('Think hard.');
    await chat.until(() => stub.received.length === 1);
    chat.interrupt();
    await chat.until(() => chat.out().includes('(stopped: human_cancelled'));
    chat.type('Never mind.');
    await chat.until(() => chat.out().includes('Back.'));
    chat.end();
    expect(await chat.done).toBe(0);
    expect(messagesOf(1).map((m) => [m.role, m.content])).toEqual([
      ['system', expect.any(String)],
      ['user', 'Think hard.'],
      ['user', 'Never mind.'],
    ]);
  });

  it('Ctrl-C at an approval prompt denies it, and every pending call of the turn still gets a result', async () => {
    const twoWrites = [
      chunk({
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            index: 0,
            id: 'call_x1',
            type: 'function',
            function: { name: 'write_file', arguments: '{"path":"x.txt","content":"x"}' },
          },
        ],
      }),
      chunk({
        tool_calls: [
          {
            index: 1,
            id: 'call_x2',
            type: 'function',
            function: { name: 'write_file', arguments: '{"path":"y.txt","content":"y"}' },
          },
        ],
      }),
      chunk({}, 'tool_calls'),
    ];
    stub.queue.push(sse(twoWrites), sse(textChunks('Okay.')));
    const chat = startChat();
    chat.type('Write both.');
    await chat.until(() => chat.out().includes('approve? [y]es'));
    chat.interrupt();
    await chat.until(() => chat.out().includes('(stopped: human_cancelled'));
    chat.type('Fine.');
    await chat.until(() => chat.out().includes('Okay.'));
    chat.end();
    expect(await chat.done).toBe(0);
    const sent = messagesOf(1);
    expect(answered(sent)).toBe(true);
    const results = sent
      .filter((m) => m.role === 'tool')
      .map((m) => JSON.parse(m.content as string) as { error?: { type: string } });
    expect(results.map((r) => r.error?.type)).toEqual(['approval_denied', 'interrupted']);
    expect(existsSync(path.join(chat.workspace, 'x.txt'))).toBe(false);
  });

  it('Ctrl-C twice at the prompt quits; --record writes a cassette that replays offline with exit 0', async () => {
    stub.queue.push(
      sse(toolCallChunks('call_r1', 'read_file', '{"path":"a.txt"}')),
      sse(textChunks('It says alpha.')),
      sse(textChunks('Bye.')),
    );
    const chat = startChat({ record: 'chat.json' });
    chat.type('What is in a.txt?');
    await chat.until(() => chat.out().includes('It says alpha.'));
    chat.type('Thanks.');
    await chat.until(() => chat.out().includes('Bye.'));
    chat.interrupt();
    await chat.until(() => chat.out().includes('press Ctrl-C again'));
    chat.interrupt();
    expect(await chat.done).toBe(0);
    expect(chat.err()).toMatch(/wrote chat\.json \(3 exchanges\)/);
    let replayOut = '';
    const code = await replayCommand(
      path.join(chat.workspace, 'chat.json'),
      {},
      { ...chat.io, stdout: (t) => (replayOut += t) },
    );
    expect(replayOut).toMatch(/no divergence/);
    expect(code).toBe(0);
  });
});
