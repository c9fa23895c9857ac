import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAIModel } from './openai-model.ts';

let server: Server;
let baseURL: string;
let requests = 0;
beforeAll(async () => {
  // One chunk, then the stream stays open until the client goes away.
  server = createServer((req, res) => {
    requests += 1;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Partial' }, finish_reason: null }] })}\n\n`,
    );
    req.socket.on('close', () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('OpenAIModel cancellation', () => {
  it('an abort in the middle of a stream rejects with aborted instead of returning the cut-off turn', async () => {
    const model = new OpenAIModel({ baseURL, apiKey: 'k', deps: { sleep: async () => {}, random: () => 0 } });
    const controller = new AbortController();
    const pending = model.generate(
      { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true },
      controller.signal,
    );
    while (requests === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
  });
});
