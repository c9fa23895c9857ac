/**
 * Golden tests of the replay rules (`docs/recording-format.md`, "Replay") on the committed real
 * recordings (`recordings/real/`, provenance in its SOURCES.md): conversations answered from their own
 * exchanges, client edits after a final answer, new sessions and retries, and explained
 * divergences (a harness decision or a client habit, `explain.ts`). The other rules are in
 * `replay-rules.golden.test.ts`.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contentText } from '../../harness/model/content.ts';
import { loadConfig } from '../config-load.ts';
import type { Cassette } from '../cassette/types.ts';
import { runRecording } from '../run-recording.ts';
import { realCassette } from './fixtures.test-helpers.ts';

const config = loadConfig();
const replay = (cassette: Cassette, base = config) =>
  runRecording(cassette, `${cassette.meta.id}.json`, base);

describe('rule 3: conversations, client edits and new sessions (recordings/real)', () => {
  const explanations = (r: Awaited<ReturnType<typeof replay>>) =>
    r.result.divergences.map((d) => [d.exchange, d.path, d.explained?.replace(/:.*/, '')]);

  it('each conversation is answered from its own exchanges only: a recording of two pydantic-ai runs', async () => {
    // The first run ends on the output tool (the client never sends its result); the harness asks
    // for one more turn, which the other run's exchange must not answer.
    const r = await replay(realCassette('openinference-pydanticai-gpt4o-history-parallel-output'));
    expect(r.result.findings).toMatchObject({ servedTurns: 2, unusedExchanges: 0, divergenceCount: 0 });
    expect(r.imported!.runs.map((run) => [run.requests.length, run.stopDetail?.slice(0, 19)])).toEqual([
      [2, 'recording_exhausted'],
      [2, 'recording_exhausted'],
    ]);
    expect(r.imported!.runs[1]!.requests[0]!.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
  });

  it("a ReAct client writing the observation into the model's message continues from its history (crewAI manager)", async () => {
    const r = await replay(realCassette('crewai-gpt4o-hierarchical-manager-workers'));
    expect(r.result.findings).toMatchObject({ servedTurns: 3, unusedExchanges: 0, conversations: 2 });
    expect(explanations(r)).toEqual([[2, '/messages/2/content', 'client habit']]);
    expect(contentText(r.imported!.runs[1]!.requests[0]!.messages[2]!.content)).toMatch(/\nObservation: /);
    expect(r.run!.finalAnswer).toMatch(/^Thought: I now know the final answer/);
  });

  it("a client message inserted before the model's message (crewAI image tool) reaches the harness", async () => {
    const cassette = realCassette('crewai-gpt4o-image-parts-telemetry');
    const r = await replay(cassette);
    expect(r.result.findings).toMatchObject({ servedTurns: 2, unusedExchanges: 0 });
    expect(explanations(r)).toEqual([[1, '/messages/2', 'client habit']]);
    expect(r.imported!.runs[1]!.requests[0]!.messages).toEqual(cassette.exchanges[1]!.request.body!.messages);
  });

  it('the same prompt sent again is a new session; a new attempt after an error starts fresh (LlamaIndex ReAct)', async () => {
    const filter = await replay(realCassette('openllmetry-azure-gpt35-content-filter'));
    expect(filter.result.findings).toMatchObject({ servedTurns: 4, unusedExchanges: 0, conversations: 4 });
    expect(filter.imported!.runs.map((run) => run.stopReason)).toEqual([
      'content_filter',
      'final_answer',
      'final_answer',
      'final_answer',
    ]);
    const react = await replay(realCassette('openllmetry-llamaindex-gpt4omini-react-gzip-deprecated-model'));
    expect(react.result.findings).toMatchObject({ servedTurns: 6, unusedExchanges: 0, conversations: 3 });
    // The 404 for the deprecated model ends a run; the client's next attempt (client messages only) starts one.
    expect(react.imported!.runs.map((run) => run.stopReason)).toEqual([
      'final_answer',
      'final_answer',
      'model_error',
      'final_answer',
      'final_answer',
      'final_answer',
      'final_answer',
    ]);
    // LlamaIndex re-renders the Action Input of the model's message as a Python dict.
    expect(explanations(react)).toEqual([
      [1, '/messages/2/content', 'client habit'],
      [4, '/messages/2/content', 'client habit'],
      [6, '/messages/2/content', 'client habit'],
    ]);
  });

  it('after a harness decision ends a run, the replay never restarts from a history the harness did not reach', async () => {
    const strict = loadConfig(fileURLToPath(new URL('../../configs/strict.json', import.meta.url)));
    const r = await replay(realCassette('crewai-gpt4omini-failing-tool'), strict);
    expect(r.result.stopReason).toBe('policy_violation');
    expect(r.imported!.runs).toHaveLength(1);
    expect(r.result.findings!.unusedExchanges).toBeGreaterThan(0);
  });
});

describe('explained divergences: each names a harness decision or a client habit (recordings/real)', () => {
  const reasons = async (id: string) =>
    (await replay(realCassette(id))).result.divergences.map((d) => [
      d.exchange,
      d.path,
      d.explained
        ?.replace(/^(harness decision|client habit): (the recorded client |the harness )?/, '')
        .slice(0, 24),
    ]);

  it("AutoGen labels the model's messages with agent names; the harness is one participant", async () => {
    expect(await reasons('openinference-autogen-gpt4o-team-interleaved')).toEqual([
      [2, '/messages/2/name', "labels the model's messa"],
      [3, '/messages/3/name', "labels the model's messa"],
    ]);
  });

  it('a client that drops tools and settings after its first request; the harness keeps what it started with', async () => {
    expect(await reasons('rubyopenai-gpt35-parallel-same-tool')).toEqual([
      [1, '/stream', 'changed stream after the'],
      [1, '/tool_choice', 'changed tool_choice afte'],
      [1, '/tools', 'changed tools after the '],
    ]);
  });

  it('reasoning_content of an answer without tool calls is not sent back: a harness decision', async () => {
    expect(await reasons('rubyllm-deepseek-reasoner-thinking-two-turns')).toEqual([
      [1, '/messages/1/reasoning', 'reasoning_content of a t'],
    ]);
  });

  it('a parallel call crewAI dropped: denied under default (a harness decision), unanswerable under permissive (no result recorded)', async () => {
    const permissive = loadConfig(fileURLToPath(new URL('../../configs/permissive.json', import.meta.url)));
    const cassette = realCassette('crewai-gpt41mini-9req-multiplier-loop');
    const [d, p] = await Promise.all([replay(cassette), replay(cassette, permissive)]);
    const whys = (r: typeof d) => [...new Set(r.result.divergences.map((x) => x.explained?.slice(0, 40)))];
    expect(whys(d)).toEqual([
      'harness decision: the recorded client dr',
      'harness decision: the harness answered t',
    ]);
    expect(whys(p)).toEqual([
      'harness decision: the recorded client dr',
      'client habit: the recorded client droppe',
    ]);
    expect(p.result.findings).toMatchObject({ servedTurns: 9, unusedExchanges: 0 });
  });

  it('a difference no rule explains stays unexplained (a served call that the next request names otherwise)', async () => {
    const cassette = realCassette('openai-gpt5mini-tool-auto-loop');
    const body = cassette.exchanges[0]!.response.body as {
      choices: { message: { tool_calls: { function: { arguments: string } }[] } }[];
    };
    body.choices[0]!.message.tool_calls[0]!.function.arguments = '{"city":"Berlin"}';
    const r = await replay(cassette);
    expect(r.result.divergences.map((d) => [d.exchange, d.path, d.explained])).toEqual([
      [1, '/messages/1/tool_calls/0/function/arguments', undefined],
    ]);
  });
});
