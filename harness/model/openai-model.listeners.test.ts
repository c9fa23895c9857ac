import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { completion, json, sse, textChunks, useStub } from '../testing/stub-server.ts';
import { OpenAIModel } from './openai-model.ts';

const stub = useStub();
/** More requests than Node's default listener limit (10) before it warns. */
const REQUESTS = 15;

describe('OpenAIModel and the run signal', () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => void warnings.push(warning);
  beforeEach(() => {
    warnings.length = 0;
    process.on('warning', onWarning);
  });
  afterEach(() => {
    process.off('warning', onWarning);
  });

  function model() {
    return new OpenAIModel({
      baseURL: stub().baseURL,
      apiKey: 'k',
      deps: { sleep: async () => {}, random: () => 0 },
    });
  }
  /** Lets the process deliver warnings emitted by the last request (process.emitWarning defers them). */
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  for (const stream of [false, true]) {
    it(`${REQUESTS} ${stream ? 'streamed' : 'whole'} requests with one signal leave no listener on it and print no MaxListenersExceededWarning`, async () => {
      const live = model();
      const controller = new AbortController();
      for (let i = 0; i < REQUESTS; i += 1) {
        stub().queue.push(
          stream ? sse(textChunks(`turn ${i}`)) : json(200, completion({ content: `turn ${i}` })),
        );
        const turn = await live.generate(
          { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream },
          controller.signal,
        );
        expect(turn.content).toBe(`turn ${i}`);
      }
      await settle();
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual(
        [],
      );
    });
  }

  it('an abort of the shared signal after many requests still cancels the one in flight', async () => {
    const live = model();
    const controller = new AbortController();
    for (let i = 0; i < REQUESTS; i += 1) {
      stub().queue.push(json(200, completion({ content: 'ok' })));
      await live.generate({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, controller.signal);
    }
    stub().queue.push((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      req.socket.on('close', () => res.destroy());
    });
    const pending = live.generate(
      { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true },
      controller.signal,
    );
    while (stub().received.length < REQUESTS + 1) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
  });
});
