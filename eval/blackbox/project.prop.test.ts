import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../../harness/model/scripted-model.ts';
import type { RecordedRequest } from '../serve/server.ts';
import { projectForeignRun } from './project.ts';

const served = (turn: number, messages: unknown[]): RecordedRequest => ({
  method: 'POST',
  path: '/v1/chat/completions',
  body: { model: 'm', messages },
  turn,
  stream: false,
  status: 200,
  outcome: 'turn',
});

describe('projectForeignRun pairing (property)', () => {
  it('whichever calls of a turn a harness sends back under their ids, each kept call gets its own answer and each dropped one none', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('read_file', 'bash'), { minLength: 1, maxLength: 6 }),
        fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
        (names, keep) => {
          const calls = names.map((name, i) => ({ id: `call_${i}`, name, arguments: '{}' }));
          const script: ScriptedTurn[] = [{ tool_calls: calls }, { content: 'done' }];
          const kept = calls.filter((_, i) => keep[i]);
          const second = [
            { role: 'user', content: 't' },
            {
              role: 'assistant',
              content: null,
              tool_calls: kept.map((c) => ({
                id: c.id,
                type: 'function',
                function: { name: c.name, arguments: '{}' },
              })),
            },
            ...kept.map((c) => ({ role: 'tool', tool_call_id: c.id, content: `answer of ${c.id}` })),
          ];
          const run = projectForeignRun([served(0, []), served(1, second)], script, undefined, 'done');
          for (const [i, call] of run.calls.entries()) {
            if (keep[i]) {
              expect(call.sentId).toBe(call.id);
              expect(call.answer).toBe(`answer of ${call.id}`);
            } else {
              expect(call.sentId).toBeUndefined();
              expect(call.answer).toBeUndefined();
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
