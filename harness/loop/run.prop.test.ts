import { writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartialConfig } from '../config.ts';
import { ModelError, type ModelResponse, type RawToolCall } from '../model/types.ts';
import { FILE_TOOLS } from '../tools/builtin/files.ts';
import { ERROR_TYPES } from '../tools/types.ts';
import { expectRunConsistent, InlineModel, recordingTool, runScript, tempWorkspace } from '../testing.ts';
import { STOP_REASONS } from './stop-reasons.ts';

let space: ReturnType<typeof tempWorkspace>;
beforeAll(() => {
  space = tempWorkspace();
  writeFileSync(path.join(space.ws, 'a.txt'), 'alpha\n');
});
afterAll(() => space.dispose());

const probe = recordingTool('probe', (args) => `probed ${JSON.stringify(args)}`);
const tools = [...Object.values(FILE_TOOLS), probe];

const idArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('call_1', 'call_2', 'call_0001', 'x', 'x~2') },
  fc.string(),
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.constant(''),
);
const nameArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('read_file', 'list_dir', 'write_file', 'str_replace', 'probe') },
  fc.constantFrom(
    '',
    'functions.read_file',
    'READ_FILE',
    'multi_tool_use.parallel',
    '__proto__',
    'constructor',
    'read_file\u0000',
    '読む',
  ),
  fc.string({ unit: 'binary' }),
  fc.integer(),
  fc.constant(null),
  fc.constant(undefined),
);
const validArgs = fc.oneof(
  fc.record({
    path: fc.constantFrom('a.txt', 'missing.txt', '.', '../escape.txt', '/etc/passwd', 'sub/new.txt'),
  }),
  fc.record({ path: fc.constantFrom('a.txt', 'b.txt'), content: fc.string() }),
  fc.record({
    path: fc.constant('a.txt'),
    old_str: fc.constantFrom('alpha', 'zzz', ''),
    new_str: fc.string(),
  }),
  fc.record({ q: fc.string() }),
);
const argsArb = fc.oneof(
  { weight: 3, arbitrary: validArgs.map((a) => JSON.stringify(a)) },
  validArgs,
  validArgs.map((a) => JSON.stringify(JSON.stringify(a))),
  validArgs.map((a) => JSON.stringify(a).slice(0, -2)),
  validArgs.map((a) => `${JSON.stringify(a)}${JSON.stringify(a)}`),
  fc.string(),
  fc.json(),
  fc.jsonValue(),
  fc.constantFrom(undefined, null, '', [], 7, true, '[1]', 'null'),
);
const callArb: fc.Arbitrary<RawToolCall> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({ id: idArb, name: nameArb, args: argsArb }).map(({ id, name, args }) => ({
      ...(id !== undefined ? { id } : {}),
      type: 'function',
      function: { name, arguments: args },
    })),
  },
  fc.constantFrom(
    null,
    'call',
    3,
    {},
    { function: null },
    { id: 'call_1' },
  ) as fc.Arbitrary<unknown> as fc.Arbitrary<RawToolCall>,
);
const turnArb: fc.Arbitrary<ModelResponse> = fc.record({
  content: fc.option(fc.string(), { nil: null }),
  toolCalls: fc.array(callArb, { minLength: 1, maxLength: 5 }),
  finishReason: fc.constantFrom('tool_calls', 'tool_calls', 'tool_calls', 'length', 'stop', null),
});

describe('runHarness (property): any tool-call shape', () => {
  it('never throws; every kept call gets exactly one tool message right after its assistant message, in order, with unique ids and JSON-object arguments', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(turnArb, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('headless', 'auto', 'interactive') as fc.Arbitrary<
          'headless' | 'auto' | 'interactive'
        >,
        async (turns, mode) => {
          const model = new InlineModel(
            (_, index) =>
              structuredClone(turns[index]) ?? { content: 'done', toolCalls: [], finishReason: 'stop' },
          );
          const result = await runScript(space.ws, model, {
            tools,
            config: { permissions: { mode }, limits: { maxConsecutiveTruncations: 10 } },
          });
          expect(STOP_REASONS).toContain(result.stopReason);
          expectRunConsistent(result);
          const assistants = result.messages.filter((m) => m.role === 'assistant' && m.tool_calls);
          for (const [i, assistant] of assistants.entries()) {
            const raw = turns[i]!.toolCalls;
            const sent = assistant.role === 'assistant' ? assistant.tool_calls! : [];
            const withoutId = raw.filter(
              (c) => typeof c !== 'object' || c === null || typeof c.id !== 'string' || c.id.trim() === '',
            ).length;
            expect(sent.length).toBeGreaterThanOrEqual(Math.max(1, withoutId));
            expect(sent.length).toBeLessThanOrEqual(raw.length);
          }
          for (const call of result.ledger.calls) {
            if (call.ok) continue;
            const envelope = JSON.parse(call.content) as {
              error: { type: string; retryable: boolean; message: string };
            };
            expect(ERROR_TYPES).toContain(envelope.error.type);
            expect(envelope.error.type).toBe(call.errorType);
            expect(envelope.error.message.length).toBeGreaterThan(0);
          }
          for (const call of result.ledger.calls)
            if (call.executed) expect(call.verdict).toMatch(/^(allow|ask:approved)$/);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('runHarness (property): budgets and stop reasons', () => {
  const responseArb: fc.Arbitrary<ModelResponse | 'error'> = fc.oneof(
    { weight: 6, arbitrary: turnArb },
    fc
      .record({
        content: fc.constantFrom('done', '{"name":"read_file","arguments":{}}', 'cut'),
        finishReason: fc.constantFrom('stop', 'length'),
      })
      .map((r): ModelResponse => ({ ...r, toolCalls: [] })),
    fc.constant('error' as const),
  );
  const configArb: fc.Arbitrary<PartialConfig> = fc.record({
    limits: fc.record({
      maxTurns: fc.integer({ min: 1, max: 6 }),
      maxToolCalls: fc.integer({ min: 1, max: 8 }),
      maxTokens: fc.integer({ min: 200, max: 50_000 }),
      maxWallMs: fc.integer({ min: 5, max: 100_000 }),
      maxConsecutiveTruncations: fc.integer({ min: 1, max: 3 }),
      wrapUpTurn: fc.boolean(),
    }),
    loop: fc
      .integer({ min: 2, max: 4 })
      .chain((warnAt) =>
        fc.record({ warnAt: fc.constant(warnAt), stopAt: fc.integer({ min: warnAt, max: warnAt + 2 }) }),
      ),
    permissions: fc.record({
      mode: fc.constantFrom('headless', 'auto', 'plan') as fc.Arbitrary<'headless' | 'auto' | 'plan'>,
      onDeny: fc.constantFrom('continue', 'stop') as fc.Arbitrary<'continue' | 'stop'>,
    }),
  });

  it('every run ends with exactly one stop reason, within its turn and tool-call budgets', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(responseArb, { minLength: 1, maxLength: 5 }),
        configArb,
        async (cycle, config) => {
          // The model never runs out: it cycles through its responses, so only the harness can stop the run.
          const model = new InlineModel((_, index) => {
            const next = cycle[index % cycle.length]!;
            if (next === 'error') throw new ModelError('http_error', 'HTTP 503', { status: 503 }, true);
            return structuredClone(next);
          });
          const result = await runScript(space.ws, model, { tools, config });
          const limits = config.limits!;
          expect(result.events.filter((e) => e.type === 'run_end')).toHaveLength(1);
          expect(STOP_REASONS).toContain(result.stopReason);
          expect(result.usage.turns).toBeLessThanOrEqual(limits.maxTurns!);
          expect(result.usage.modelCalls).toBeLessThanOrEqual(limits.maxTurns! + (limits.wrapUpTurn ? 1 : 0));
          expect(result.ledger.calls.filter((c) => c.executed).length).toBeLessThanOrEqual(
            limits.maxToolCalls!,
          );
          expect(result.ledger.turns.filter((t) => t.wrapUp).length).toBeLessThanOrEqual(1);
          for (const call of result.ledger.calls)
            if (result.ledger.turns[call.turn - 1]?.wrapUp) expect(call.executed).toBe(false);
          expectRunConsistent(result);
        },
      ),
      { numRuns: 150 },
    );
  });
});
