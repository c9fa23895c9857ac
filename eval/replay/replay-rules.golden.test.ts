/**
 * Golden tests of the replay rules (`docs/recording-format.md`, "Replay"), one per rule, on real
 * recordings: the committed cassettes in `recordings/real/` and the fixtures in `eval/replay/fixtures/` (crewAI,
 * pydantic-ai and Mirascope test cassettes, MIT; provenance in each cassette's `meta.source`
 * and in `fixtures/SOURCES.md`).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contentText } from '../../harness/model/content.ts';
import type { AssistantMessage, ChatMessage } from '../../harness/model/types.ts';
import { loadConfig } from '../config-load.ts';
import { loadCassette } from '../cassette/load.ts';
import type { Cassette } from '../cassette/types.ts';
import { runRecording } from '../run-recording.ts';
import { cassetteOf, realCassette } from './fixtures.test-helpers.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const fixture = (id: string): Cassette => loadCassette(join(FIXTURES, `${id}.json`));
const config = loadConfig();
const replay = (cassette: Cassette, base = config) =>
  runRecording(cassette, `${cassette.meta.id}.json`, base);
const assistants = (messages: readonly ChatMessage[]) =>
  messages.filter((m): m is AssistantMessage => m.role === 'assistant');
const unexplained = (r: Awaited<ReturnType<typeof replay>>) =>
  r.result.divergences.filter((d) => !d.explained);

describe('rule 2: only model traffic becomes model turns', () => {
  it('tracing before and after the turn is listed, never served: the model turn answers the first request', async () => {
    const r = await replay(fixture('crewai-tracing-around-one-turn'));
    expect(r.result.status).toBe('pass');
    expect(r.run!.finalAnswer).toBe('hello world');
    expect(r.result.findings).toMatchObject({ servedTurns: 1, unusedExchanges: 0, divergenceCount: 0 });
    // The cassette's own list (i10a's format: positions in the source recording), never an exchange.
    expect(r.result.findings!.nonModelTraffic!.map((t) => [t.index, t.exchange, t.method, t.status])).toEqual(
      [
        [0, undefined, 'POST', 200],
        [1, undefined, 'POST', 404],
        [3, undefined, 'POST', 404],
      ],
    );
    expect(r.result.findings!.nonModelTraffic![0]).toMatchObject({
      url: 'https://fake.crewai.com/crewai_plus/api/v1/tracing/batches',
      note: 'telemetry (tracing)',
    });
  });

  it('an embeddings call between two conversations is non-model traffic; both conversations are served', async () => {
    const r = await replay(fixture('crewai-knowledge-embeddings-two-conversations'));
    expect(r.result.findings).toMatchObject({ servedTurns: 2, conversations: 2, unusedExchanges: 0 });
    expect(r.result.findings!.nonModelTraffic!.map((t) => `${t.method} ${t.url}`)).toEqual([
      'POST https://api.openai.com/v1/embeddings',
    ]);
    expect(r.run!.finalAnswer).toMatch(/Brandon's favorite color is red/);
    expect(unexplained(r)).toEqual([]);
  });
});

describe('rule 3: replay follows conversations, not only order', () => {
  it('interleaved side conversations (a crew manager and two coworkers) are each served to their caller', async () => {
    const r = await replay(fixture('crewai-hierarchical-interleaved'));
    expect(r.result.status).toBe('pass');
    expect(r.result.findings).toMatchObject({
      servedTurns: 6,
      conversations: 3,
      unusedExchanges: 0,
      divergenceCount: 0,
    });
    // The manager's conversation first (exchanges 0, 3, 5), then each coworker's, the writer's with its second task.
    expect(r.imported!.conversations.map((c) => [c.exchanges, c.runs])).toEqual([
      [[0, 3, 5], 1],
      [[1, 4], 2],
      [[2], 1],
    ]);
    const manager = r.imported!.runs[0]!;
    expect(manager.requests.map((q) => contentText(q.messages[0]?.content).slice(0, 19))).toEqual([
      'You are Crew Manage',
      'You are Crew Manage',
      'You are Crew Manage',
    ]);
    expect(r.run!.finalAnswer).toMatch(/The Rise of Autonomous AI Agents/);
    expect(r.run!.stopReason).toBe('final_answer');
  });

  it('a recording that starts mid-conversation keeps all of its history', async () => {
    const cassette = fixture('pydantic-history-starts-with-assistant');
    const r = await replay(cassette);
    expect(r.result.findings).toMatchObject({ servedTurns: 1, divergenceCount: 0 });
    expect(r.run!.requests[0]!.messages).toEqual(cassette.exchanges[0]!.request.body!.messages);
    expect(r.run!.finalAnswer).toBe('Linux mascot, a penguin character.');
  });

  it('every recorded user turn is replayed: crewAI nudges after tool results and four tasks in one history', async () => {
    const r = await replay(realCassette('crewai-gpt41mini-9req-multiplier-loop'));
    expect(r.result.findings).toMatchObject({ servedTurns: 9, unusedExchanges: 0 });
    // Only the call crewAI dropped (it runs the first of two parallel calls) differs, and it is explained.
    expect(unexplained(r)).toEqual([]);
    const last = r.run!.requests.at(-1)!;
    expect(
      last.messages.filter((m) => m.role === 'user').map((m) => contentText(m.content).slice(0, 16)),
    ).toEqual([
      '\nCurrent Task: W',
      'Analyze the tool',
      '\nCurrent Task: W',
      'Analyze the tool',
      '\nCurrent Task: W',
      'Analyze the tool',
      'Analyze the tool',
      '\nCurrent Task: W',
      'Analyze the tool',
    ]);
    expect(r.run!.finalAnswer).toBe('12');
  });

  it("pydantic-ai's re-prompt after a text answer continues the conversation (output-tool retry)", async () => {
    for (const id of ['cerebras-qwen3coder-output-tool-retry', 'ollama-cloud-gptoss20b-output-tool-retry']) {
      const r = await replay(realCassette(id));
      expect(r.result.findings, id).toMatchObject({ servedTurns: 2, unusedExchanges: 0, divergenceCount: 0 });
      expect(
        r.imported!.runs.map((run) => run.stopReason),
        id,
      ).toEqual(['final_answer', 'model_error']);
      expect(
        r.imported!.runs[1]!.ledger.calls.map((c) => c.tool),
        id,
      ).toEqual(['final_result']);
    }
  });

  it('a user message with an image the client sends after a tool result reaches the harness', async () => {
    const cassette = fixture('pydantic-image-after-tool-result');
    const r = await replay(cassette);
    expect(r.result.findings).toMatchObject({ servedTurns: 2, unusedExchanges: 0, divergenceCount: 0 });
    const recorded = cassette.exchanges[1]!.request.body!.messages as unknown[];
    expect(r.run!.requests[1]!.messages.at(-1)).toEqual(recorded.at(-1));
    expect(r.run!.finalAnswer).toBe('The image shows a potato.');
  });
});

describe('rule 4: the harness does at least as well as the recorded client', () => {
  it('Groq tool_use_failed as an error event after a 200 stream: the rejected call, validated, retried', async () => {
    const r = await replay(fixture('pydantic-groq-tool-use-failed-stream'));
    expect(r.result.status).toBe('pass');
    expect(r.result.findings).toMatchObject({ servedTurns: 3, unusedExchanges: 0 });
    expect(r.run!.ledger.calls.map((c) => c.errorType ?? 'ok')).toEqual(['invalid_arguments', 'ok']);
    // The reasoning streamed before the error goes back with the rejected call (pydantic-ai sent it as <think>).
    expect(assistants(r.run!.messages)[0]!.reasoning).toMatch(
      /^We need to call the tool with invalid parameters/,
    );
    // What differs is only the harness's own validation message where pydantic-ai wrote its own.
    expect(r.result.divergences.map((d) => [d.exchange, d.path, Boolean(d.explained)])).toEqual([
      [1, '/messages/3/content', true],
      [2, '/messages/3/content', true],
    ]);
  });

  it('text where a tool was required (error event with an empty failed generation) is the turn; the re-prompt follows', async () => {
    const r = await replay(fixture('pydantic-groq-text-instead-of-tool-stream'));
    expect(r.result.findings).toMatchObject({ servedTurns: 2, unusedExchanges: 0, divergenceCount: 0 });
    expect(r.imported!.runs[0]!.finalAnswer).toBe('maybe');
  });

  it('reasoning_details with their signature go back with the tool call (OpenRouter shape, Snowflake Cortex)', async () => {
    const cassette = fixture('pydantic-snowflake-reasoning-details');
    const r = await replay(cassette);
    expect(r.result.findings).toMatchObject({ servedTurns: 2, divergenceCount: 0 });
    const sent = assistants(r.run!.requests[1]!.messages)[0]!;
    expect(sent.reasoning_details).toEqual(
      (cassette.exchanges[1]!.request.body!.messages as Record<string, unknown>[])[1]!.reasoning_details,
    );
  });

  it('DeepSeek reasoning_content goes back on tool-call turns; only what the client added itself differs', async () => {
    const r = await replay(fixture('pydantic-deepseek-reasoning-content'));
    expect(r.result.findings).toMatchObject({ servedTurns: 3, unusedExchanges: 0 });
    expect(r.result.divergences.filter((d) => /reasoning/.test(d.path))).toEqual([]);
    // pydantic-ai inserted a search_tools call of its own (deferred capability) and grew its tool
    // list: client habits, each explained; no recorded response made that call.
    expect(
      r.result.divergences.map((d) => `${d.exchange} ${d.path} ${d.kind} ${d.explained?.slice(0, 50)}`),
    ).toEqual([
      '0 /tools/get_player_name extra client habit: the recorded client changed its tool',
      '0 /tools/roll_dice extra client habit: the recorded client changed its tool',
      '1 /messages/5 missing client habit: the recorded client inserted a tool ',
      '1 /messages/6 missing client habit: the recorded client inserted a tool ',
      '2 /messages/5 missing client habit: the recorded client inserted a tool ',
      '2 /messages/6 missing client habit: the recorded client inserted a tool ',
    ]);
  });

  it("an error chunk after a 200 stream (OpenRouter's, with choices) fails the call as the live client does", async () => {
    const r = await replay(realCassette('openrouter-minimax-stream-error-event'));
    expect(r.result).toMatchObject({ status: 'pass', stopReason: 'model_error' });
    expect(r.result.stopDetail).toMatch(/^http_error: error event in a 200 stream .*Token limit reached/);
    expect(r.run!.finalAnswer).toBeNull();
  });

  it("Mistral's thinking parts go back in the content as the provider sent them; the answer is the text", async () => {
    const cassette = realCassette('rubyllm-mistral-small-thinking-parts-two-turns');
    const r = await replay(cassette);
    expect(r.result.findings).toMatchObject({ servedTurns: 2, unusedExchanges: 0 });
    expect(r.imported!.runs[0]!.finalAnswer).toBe('144');
    const sent = r.imported!.runs[1]!.requests[0]!.messages[1]!;
    expect(contentText(sent.content)).toBe('144');
    expect((sent.content as { type: string }[]).map((p) => p.type)).toEqual(['thinking', 'text']);
    // RubyLLM drops the `closed` flag of the thinking part: the only difference, a client habit.
    expect(r.result.divergences.map((d) => [d.path, d.explained?.replace(/:.*/, '')])).toEqual([
      ['/messages/1/content', 'client habit'],
    ]);
  });

  it('a refusal (message.refusal, no content) stops with content_filter, never an empty final answer', async () => {
    const ask = [{ role: 'user', content: 'Help me hurt someone.' }];
    const cassette = cassetteOf([
      {
        request: { method: 'POST', path: '/v1/chat/completions', body: { model: 'gpt-4o', messages: ask } },
        response: {
          status: 200,
          headers: {},
          body: {
            model: 'gpt-4o-2024-08-06',
            choices: [
              {
                index: 0,
                message: {
                  role: 'assistant',
                  content: null,
                  refusal: "I'm sorry, I can't assist with that.",
                },
                finish_reason: 'stop',
              },
            ],
          },
        },
      },
    ]);
    const r = await replay(cassette);
    expect(r.result).toMatchObject({ status: 'pass', stopReason: 'content_filter' });
    expect(r.result.stopDetail).toBe(
      "the model refused (message.refusal): I'm sorry, I can't assist with that.",
    );
    expect(r.run!.finalAnswer).toBeNull();
  });

  it("Azure's filtered prompt (400 content_filter) stops with content_filter, never a final answer", async () => {
    const r = await replay(fixture('mirascope-azure-content-filter'));
    expect(r.result).toMatchObject({ status: 'pass', stopReason: 'content_filter' });
    expect(r.run!.finalAnswer).toBeNull();
  });
});

describe('rule 5: no hollow pass', () => {
  it('a recording of non-model traffic only fails: no model turn was served', async () => {
    const cassette = fixture('crewai-tracing-around-one-turn');
    cassette.exchanges = cassette.exchanges.filter((e) => !e.request.path.endsWith('/chat/completions'));
    const r = await replay(cassette);
    expect(r.result.status).toBe('fail');
    expect(r.result.firstFailure).toMatch(/^replay\.servedModelTurn: /);
    expect(r.result.checks.find((c) => c.name === 'replay.servedModelTurn')!.observed).toBe(
      'the recording holds no model exchange (only non-model traffic: POST https://fake.crewai.com/crewai_plus/api/v1/tracing/batches (200), POST https://app.crewai.com/crewai_plus/api/v1/tracing/batches (404), POST https://app.crewai.com/crewai_plus/api/v1/tracing (404))',
    );
  });

  it('an undecodable recorded body (compressed bytes kept as text) is a failure, not a finding', async () => {
    const cassette = realCassette('openai-gpt5mini-tool-auto-loop');
    cassette.exchanges[1]!.response = {
      status: 200,
      headers: {},
      body: '\u001f\u008b\b\u0000\u0000\u0000\u0000\u0000',
    };
    const r = await replay(cassette);
    expect(r.result.status).toBe('fail');
    expect(r.result.checks.find((c) => c.name === 'replay.validResponses')).toMatchObject({ pass: false });
    expect(r.result.stopDetail).toMatch(/^invalid_response/);
  });
});

describe('rule 6: real recordings say something about configurations', () => {
  const strict = loadConfig(fileURLToPath(new URL('../../configs/strict.json', import.meta.url)));
  const permissive = loadConfig(fileURLToPath(new URL('../../configs/permissive.json', import.meta.url)));

  it('default, strict and permissive decide differently on a recorded call of an unclassified tool', async () => {
    const cassette = realCassette('crewai-gpt4omini-failing-tool');
    const [d, s, p] = await Promise.all([
      replay(cassette),
      replay(cassette, strict),
      replay(cassette, permissive),
    ]);
    expect(d.result.findings!.toolEffects).toEqual([
      { tool: 'failing_tool', effect: 'write', rule: 'unknown' },
    ]);
    expect(d.result.verdicts).toMatchObject({ 'ask:approved': 1, 'ask:denied': 0, allow: 0 });
    expect(d.result.stopReason).toBe('final_answer');
    // strict.json: an unclassified recorded tool counts as irreversible, which strict denies and stops on.
    expect(s.result.findings!.toolEffects).toEqual([
      { tool: 'failing_tool', effect: 'irreversible', rule: 'unknown' },
    ]);
    expect(s.result.verdicts).toMatchObject({ 'ask:approved': 0, deny: 1 });
    expect(s.result.stopReason).toBe('policy_violation');
    expect(p.result.verdicts).toMatchObject({ allow: 1 });
  });

  it('a configuration mapping turns the same recording into a read, and a delete rule into a denial under strict', async () => {
    const cassette = realCassette('crewai-gpt41mini-9req-multiplier-loop');
    const asRead = {
      ...config,
      config: {
        ...config.config,
        replay: {
          ...config.config.replay,
          toolEffects: [{ pattern: 'multiplier', effect: 'read' as const }],
        },
      },
    };
    const r = await replay(cassette, asRead);
    expect(r.result.findings!.toolEffects).toEqual([
      { tool: 'multiplier', effect: 'read', rule: 'config:multiplier' },
    ]);
    expect(r.result.verdicts.allow).toBeGreaterThan(0);
    const asDelete = {
      ...strict,
      config: {
        ...strict.config,
        replay: {
          ...strict.config.replay,
          toolEffects: [{ pattern: 'multiplier', effect: 'irreversible' as const }],
        },
      },
    };
    const denied = await replay(cassette, asDelete);
    expect(denied.result.verdicts.deny).toBe(1);
    expect(denied.result.stopReason).toBe('policy_violation');
  });
});
