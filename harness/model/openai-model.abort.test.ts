import { describe, expect, it } from 'vitest';
import { chunk, useStub, type Responder } from '../testing/stub-server.ts';
import { OpenAIModel } from './openai-model.ts';

const stub = useStub();
/** One chunk, then the stream stays open until the client goes away. */
const hangingStream: Responder = (req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(`data: ${JSON.stringify(chunk({ content: 'Partial' }))}\n\n`);
  req.socket.on('close', () => res.destroy());
};

describe('OpenAIModel cancellation', () => {
  it('an abort in the middle of a stream rejects with aborted instead of returning the cut-off turn', async () => {
    const model = new OpenAIModel({
      baseURL: stub().baseURL,
      apiKey: 'k',
      deps: { sleep: async () => {}, random: () => 0 },
    });
    stub().queue.push(hangingStream);
    const controller = new AbortController();
    const pending = model.generate(
      { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true },
      controller.signal,
    );
    while (stub().received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
  });
});
