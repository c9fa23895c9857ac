/**
 * Helpers of the stream-conversion tests: a real recording's events, and the openai SDK's own
 * accumulation of a stream (`ChatCompletionStream.finalChatCompletion`), fed through a `fetch`
 * that answers with the events as server-sent events (no socket).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import type { Cassette } from '../cassette/types.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The cassette `recordings/real/<id>.json`. Throws when it is missing or not JSON. */
export function realRecording(id: string): Cassette {
  return JSON.parse(readFileSync(`${ROOT}recordings/real/${id}.json`, 'utf8')) as Cassette;
}

/** The `data:` payloads of model exchange `exchange` (0-based) of a real recording; `[]` when it holds a body. */
export function recordedEvents(id: string, exchange = 0): string[] {
  return (realRecording(id).exchanges[exchange]?.response.events ?? []).map((e) => e.data);
}

/** The events as server-sent-events text, each line of a payload its own `data:` line (as `server.ts` sends). */
export function sseText(events: readonly string[]): string {
  return events
    .map(
      (data) =>
        `${data
          .split('\n')
          .map((line) => `data: ${line}`)
          .join('\n')}\n\n`,
    )
    .join('');
}

/**
 * The completion the openai SDK assembles from `events` (`chat.completions.stream(...)
 * .finalChatCompletion()`). Rejects as the SDK does: on an error event, a missing finish reason,
 * a tool call without a type.
 */
export async function sdkAccumulation(events: readonly string[]): Promise<OpenAI.ChatCompletion> {
  const text = sseText(events);
  const client = new OpenAI({
    apiKey: 'k',
    baseURL: 'http://127.0.0.1:9/v1',
    maxRetries: 0,
    fetch: async () => new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  });
  return client.chat.completions.stream({ model: 'm', messages: [] }).finalChatCompletion();
}

/**
 * The fields a conversion must keep, of a `chat.completion` body: `id`, `model`, `created`,
 * `system_fingerprint`, `usage`, and per choice `index`, `finish_reason`, the message's `role`,
 * `content`, `refusal`, `reasoning_content` (when `withReasoning`) and its tool calls' `id`,
 * `type`, `function.name`, `function.arguments`. Absent and `null` read alike; holes in a
 * tool-call list are dropped.
 */
export function essentials(body: unknown, withReasoning = true): unknown {
  type Obj = Record<string, unknown>;
  const obj = (value: unknown): Obj => (typeof value === 'object' && value !== null ? (value as Obj) : {});
  const list = (value: unknown): Obj[] => (Array.isArray(value) ? value.filter(Boolean).map(obj) : []);
  const b = obj(body);
  return {
    id: b.id,
    model: b.model,
    created: b.created,
    system_fingerprint: b.system_fingerprint ?? null,
    usage: b.usage ?? null,
    choices: list(b.choices).map((choice) => {
      const message = obj(choice.message);
      return {
        index: choice.index,
        finish_reason: choice.finish_reason ?? null,
        role: message.role,
        content: message.content ?? null,
        refusal: message.refusal ?? null,
        ...(withReasoning ? { reasoning_content: message.reasoning_content ?? null } : {}),
        tool_calls: list(message.tool_calls).map((call) => ({
          id: call.id,
          type: call.type,
          name: obj(call.function).name,
          arguments: obj(call.function).arguments,
        })),
      };
    }),
  };
}
