/**
 * Helpers shared by the replay tests (not a test file itself): small in-memory cassettes, the
 * conversion of a recorded request body back into the `ModelRequest` that produces it, and a
 * minimal harness loop.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ModelError,
  type ChatMessage,
  type ModelErrorCode,
  type ModelRequest,
  type ToolSchema,
  type WireToolCall,
} from '../../harness/model/types.ts';
import type { ToolContext, ToolOutput } from '../../harness/tools/types.ts';
import { loadCassette } from '../cassette/load.ts';
import type { Cassette, Exchange, RecordedResponse } from '../cassette/types.ts';
import { replayPlan } from './recorded-tools.ts';
import { ReplayModel } from './replay-model.ts';

/** Folder of the committed real cassettes. */
export const REAL_DIR = fileURLToPath(new URL('../../recordings/real/', import.meta.url));

/** Loads `recordings/real/<id>.json`. */
export function realCassette(id: string): Cassette {
  return loadCassette(join(REAL_DIR, `${id}.json`));
}

/** A cassette around the given exchanges; `imported` decides the default replay mode. */
export function cassetteOf(exchanges: Exchange[], imported = true): Cassette {
  return {
    format: 'harness-bench.cassette',
    version: 1,
    meta: {
      id: 'inline',
      title: 'inline',
      recordedAt: 'unknown',
      host: 'api.example',
      modelRequested: 'm',
      modelServed: 'm',
      task: 'task',
      toolSchemasHash: null,
      responseOnly: exchanges.every((e) => !e.request.body),
      ...(imported ? { imported: { format: 'vcr-yaml' as const, file: 'inline.yaml' } } : {}),
    },
    deps: {},
    exchanges,
  };
}

/** A JSON 200 completion with the given message. */
export function completion(message: Record<string, unknown>, finishReason = 'stop'): RecordedResponse {
  return {
    status: 200,
    headers: {},
    body: {
      model: 'm-served',
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason }],
    },
  };
}

/** A request exchange with `messages` (model `m`) answered by `response`. */
export function exchange(
  messages: unknown[],
  response: RecordedResponse,
  extra: Record<string, unknown> = {},
): Exchange {
  return {
    request: { method: 'POST', path: '/v1/chat/completions', body: { model: 'm', messages, ...extra } },
    response,
  };
}

/** The `ModelRequest` whose wire body is `body` (the inverse of `wireBody`). */
export function requestFromBody(body: Record<string, unknown>, fallbackModel = 'm'): ModelRequest {
  const { model, messages, tools, ...settings } = body;
  return {
    model: typeof model === 'string' ? model : fallbackModel,
    messages: messages as ChatMessage[],
    ...(Array.isArray(tools) ? { tools: tools as ToolSchema[] } : {}),
    settings,
  };
}

/** What {@link miniHarness} saw: how the run ended, each tool outcome, the replay model. */
export interface MiniRun {
  end: 'final' | ModelErrorCode;
  outcomes: { tool: string; callId: string; output: ToolOutput }[];
  model: ReplayModel;
}

/**
 * A minimal harness loop over a cassette, for tests: sends the replay plan's messages, tools
 * and settings (`recordedSchemas`: the recorded tool schemas verbatim, else schemas built from
 * the tool definitions), keeps the model's call ids and numbers missing ones `call_0001`, …,
 * runs every call through the recorded tools without validation, and stops on a text answer or
 * a model error.
 */
export async function miniHarness(
  cassette: Cassette,
  options: { recordedSchemas?: boolean; maxTurns?: number } = {},
): Promise<MiniRun> {
  const model = new ReplayModel(cassette, 'sequential');
  const plan = replayPlan(cassette, { model });
  const tools = new Map(plan.tools.map((t) => [t.name, t]));
  const schemas: ToolSchema[] = options.recordedSchemas
    ? plan.toolSchemas
    : plan.tools.map((t) => ({
        type: 'function',
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
  const messages: ChatMessage[] =
    plan.initialMessages.length > 0 ? [...plan.initialMessages] : [{ role: 'user', content: plan.task }];
  const outcomes: MiniRun['outcomes'] = [];
  let counter = 0;
  for (let turn = 0; turn < (options.maxTurns ?? 20); turn++) {
    let response: Awaited<ReturnType<typeof model.generate>>;
    try {
      response = await model.generate({
        model: plan.model,
        messages: structuredClone(messages),
        ...(schemas.length > 0 ? { tools: schemas } : {}),
        settings: plan.settings,
      });
    } catch (error) {
      if (error instanceof ModelError) return { end: error.code, outcomes, model };
      throw error;
    }
    if (response.toolCalls.length === 0) return { end: 'final', outcomes, model };
    const calls: WireToolCall[] = response.toolCalls.map((c) => ({
      id: typeof c.id === 'string' ? c.id : `call_${String(++counter).padStart(4, '0')}`,
      type: 'function',
      function: {
        name: String(c.function?.name),
        arguments:
          typeof c.function?.arguments === 'string'
            ? c.function.arguments
            : JSON.stringify(c.function?.arguments ?? {}),
      },
    }));
    messages.push({ role: 'assistant', content: response.content, tool_calls: calls });
    for (const call of calls) {
      const output = await tools
        .get(call.function.name)!
        .execute(
          JSON.parse(call.function.arguments || '{}') as Record<string, unknown>,
          { callId: call.id } as ToolContext,
        );
      outcomes.push({ tool: call.function.name, callId: call.id, output });
      messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: output.ok
          ? output.content
          : JSON.stringify({ error: { type: output.errorType, message: output.message } }),
      });
    }
  }
  return { end: 'final', outcomes, model };
}
