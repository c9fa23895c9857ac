/**
 * Replay faults: the model layer that turns recorded provider traffic into turns
 * (`harness/model/stream-assembler.ts`, `provider-errors.ts`) and the replay machinery that
 * serves a cassette back (`eval/replay/`). The `replay` scenarios reproduce recorded exchanges as
 * scripted turns (streamed chunks, a Groq 400 with failed_generation, provider errors); the
 * cassettes in {@link REPLAY_RECORDINGS} are replayed too, with their expectations. Public
 * threads: maximhq/bifrost#1829 and QwenLM/Qwen-Agent#943 (stream deltas merged across calls),
 * langchain-ai/langchain#35559 (the usage chunk dropped), tashfeenahmed/freellmapi#291
 * (tool_use_failed rescued into calls).
 */
import type { Fault } from '../types.ts';

export const REPLAY_FAULTS: Fault[] = [
  {
    id: 'replay/stream-usage-dropped',
    tag: 'replay',
    bug: 'the stream assembler ignores the usage of the final, choice-less chunk',
    patches: [
      {
        file: 'harness/model/stream-assembler.ts',
        search: "if (isObject(record.usage)) this.usage = record.usage as ModelResponse['usage'];",
        replace: '',
      },
    ],
  },
  {
    id: 'replay/stream-arguments-overwritten',
    tag: 'replay',
    bug: 'each argument delta replaces the arguments so far instead of being appended',
    patches: [
      {
        file: 'harness/model/stream-assembler.ts',
        search: 'call.arguments += fn.arguments;',
        replace: 'call.arguments = fn.arguments;',
      },
    ],
  },
  {
    id: 'replay/stream-content-overwritten',
    tag: 'replay',
    bug: 'each content delta replaces the text so far instead of being appended',
    patches: [
      {
        file: 'harness/model/stream-assembler.ts',
        search: 'this.content += contentText(delta.content as MessageContent);',
        replace: 'this.content = contentText(delta.content as MessageContent);',
      },
    ],
  },
  {
    id: 'replay/stream-object-arguments-dropped',
    tag: 'replay',
    bug: 'arguments streamed as an object (not a string) are dropped',
    patches: [
      {
        file: 'harness/model/stream-assembler.ts',
        search: 'call.arguments = JSON.stringify(fn.arguments);',
        replace: "call.arguments = '';",
      },
    ],
  },
  {
    id: 'replay/stream-finish-reason-lost',
    tag: 'replay',
    bug: 'the finish reason of a streamed turn is not kept, so a turn cut off by the output limit looks complete',
    patches: [
      {
        file: 'harness/model/stream-assembler.ts',
        search:
          "if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '')\n        this.finishReason = choice.finish_reason;",
        replace: '',
      },
    ],
  },
  {
    id: 'replay/failed-generation-not-recovered',
    tag: 'replay',
    bug: 'a 400 tool_use_failed is always an error, even when failed_generation holds the call',
    patches: [
      {
        file: 'harness/model/provider-errors.ts',
        search:
          "if (error.code !== 'tool_use_failed' || typeof error.failed_generation !== 'string') return undefined;",
        replace: 'if (true as boolean) return undefined;',
      },
    ],
  },
  {
    id: 'replay/failed-generation-parameters-ignored',
    tag: 'replay',
    bug: 'a failed_generation call whose arguments are under "parameters" is recovered without them',
    patches: [
      {
        file: 'harness/model/provider-errors.ts',
        search: "const args = 'arguments' in item ? item.arguments : item.parameters;",
        replace: 'const args = item.arguments;',
      },
    ],
  },
  {
    id: 'replay/failed-generation-first-call-only',
    tag: 'replay',
    bug: 'only the first call of a failed_generation list is recovered',
    patches: [
      {
        file: 'harness/model/provider-errors.ts',
        search: 'const items = Array.isArray(value) ? value : [value];',
        replace: 'const items = Array.isArray(value) ? value.slice(0, 1) : [value];',
      },
    ],
  },
  {
    id: 'replay/failed-generation-text-dropped',
    tag: 'replay',
    bug: 'a failed_generation that names no call is dropped: the 400 ends the run as model_error instead of giving the model its own text as the turn',
    patches: [
      {
        file: 'harness/model/provider-errors.ts',
        search: '  if (!text) return undefined;\n',
        replace: '  if (text || !text) return undefined;\n',
      },
    ],
  },
  {
    id: 'replay/recorded-approvals-ignored',
    tag: 'replay',
    bug: 'a replay answers every approval with yes instead of the answer the recording holds',
    patches: [
      {
        file: 'eval/replay/replay-recorded.ts',
        search: "return ledger.calls[index]!.verdict === 'ask:approved' ? 'approve' : 'deny';",
        replace: "return 'approve';",
      },
    ],
  },
];
