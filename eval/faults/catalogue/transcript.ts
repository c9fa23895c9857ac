/**
 * Transcript faults (`harness/tools/assemble.ts`, the result order of `harness/loop/dispatch.ts`,
 * the appending in `harness/loop/run.ts`): each breaks one of TI-1…TI-4 (`docs/conventions.md`),
 * which the scenario runner checks on the stored conversation and on every request. Public
 * threads: anthropics/claude-code#20693 (duplicate ids), #21906 (result order),
 * HKUDS/OpenHarness#240 (a call left without a result poisons every later request).
 */
import type { Fault } from '../types.ts';

export const TRANSCRIPT_FAULTS: Fault[] = [
  {
    id: 'transcript/results-sorted-by-id',
    tag: 'transcript',
    bug: 'the results of a turn are sorted by call id, which is the call order only when the ids happen to be sorted',
    patches: [
      {
        file: 'harness/loop/dispatch.ts',
        search: 'return { results: turn.results, ...(turn.stop ? { stop: turn.stop } : {}) };',
        replace:
          'return { results: [...turn.results].sort((a, b) => a.call.callId.localeCompare(b.call.callId)), ...(turn.stop ? { stop: turn.stop } : {}) };',
      },
    ],
  },
  {
    id: 'transcript/duplicate-id-drops-other-arguments',
    tag: 'transcript',
    bug: 'a repeated id in one turn is dropped as a stream duplicate even when its arguments differ',
    patches: [
      {
        file: 'harness/tools/assemble.ts',
        search: 'const kept = sameId.get(signature);',
        replace: 'const kept = [...sameId.values()][0];',
      },
    ],
  },
  {
    id: 'transcript/duplicate-kept-twice',
    tag: 'transcript',
    bug: 'a call re-emitted with the same id and arguments is not recognised as a stream artifact and runs twice',
    patches: [
      {
        file: 'harness/tools/assemble.ts',
        search: 'if (kept) {\n        dropped.push(modelId!);',
        replace: 'if (kept && (false as boolean)) {\n        dropped.push(modelId!);',
      },
    ],
  },
  {
    id: 'transcript/reused-id-kept',
    tag: 'transcript',
    bug: 'an id already used earlier in the conversation is sent back as it is',
    patches: [
      {
        file: 'harness/tools/assemble.ts',
        search: '} else if (options.usedIds.has(modelId)) {',
        replace: '} else if (options.usedIds.has(modelId) && (false as boolean)) {',
      },
    ],
  },
  {
    id: 'transcript/blank-id-kept',
    tag: 'transcript',
    bug: 'a blank id counts as an id, so calls go back with an empty or whitespace id',
    patches: [
      {
        file: 'harness/tools/assemble.ts',
        search: "typeof call.id === 'string' && call.id.trim() !== '' ? call.id : undefined",
        replace: "typeof call.id === 'string' ? call.id : undefined",
      },
    ],
  },
  {
    id: 'transcript/assigned-id-not-checked',
    tag: 'transcript',
    bug: 'a generated id is not checked against the ids in use, so it can equal one the model chose',
    patches: [
      {
        file: 'harness/tools/assemble.ts',
        search: "while (options.usedIds.has(id)) id = options.deps.newId('call_');",
        replace: '',
      },
    ],
  },
  {
    id: 'transcript/invalid-arguments-replayed',
    tag: 'transcript',
    bug: 'arguments that are not a JSON object are replayed to the model as the model sent them',
    patches: [
      {
        file: 'harness/tools/assemble.ts',
        search: "const replayed = parsed.ok ? parsed.text : '{}';",
        replace:
          "const replayed = parsed.ok ? parsed.text : typeof rawArguments === 'string' ? rawArguments : JSON.stringify(rawArguments) ?? '';",
      },
    ],
  },
  {
    id: 'transcript/unexecuted-calls-unanswered',
    tag: 'transcript',
    bug: 'only calls that ran get a tool message; refused ones are left without a result',
    patches: [
      {
        file: 'harness/loop/run.ts',
        search:
          "for (const item of outcome.results)\n    state.messages.push({ role: 'tool', tool_call_id: item.call.callId, content: item.content });\n  // Content of an untrusted tool",
        replace:
          "for (const item of outcome.results.filter((r) => r.executed))\n    state.messages.push({ role: 'tool', tool_call_id: item.call.callId, content: item.content });\n  // Content of an untrusted tool",
      },
    ],
  },
  {
    id: 'transcript/stop-drops-later-calls',
    tag: 'transcript',
    bug: 'when a call stops the run, the dispatcher breaks out of the turn and later calls get no result',
    patches: [
      {
        file: 'harness/loop/dispatch.ts',
        search: 'for (const call of calls) {\n      const args = call.wire.function.arguments;',
        replace:
          'for (const call of calls) {\n      if (turn.stop) break;\n      const args = call.wire.function.arguments;',
      },
    ],
  },
  {
    id: 'transcript/wrap-up-calls-unanswered',
    tag: 'transcript',
    bug: 'tool calls of the wrap-up turn are stored without results',
    patches: [
      {
        file: 'harness/loop/run.ts',
        search: 'if (calls.length > 0) {\n        const outcome = await dispatchTurn(calls, {',
        replace:
          'if (calls.length > 0 && (false as boolean)) {\n        const outcome = await dispatchTurn(calls, {',
      },
    ],
  },
  {
    id: 'transcript/resumed-ids-forgotten',
    tag: 'transcript',
    bug: 'ids of a resumed conversation are not counted as used, so a model repeating one sends a duplicate id',
    patches: [
      {
        file: 'harness/loop/state.ts',
        search: "if (m.role === 'assistant') for (const c of m.tool_calls ?? []) usedIds.add(c.id);",
        replace: 'void m;',
      },
    ],
  },
];
