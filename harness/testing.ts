/**
 * `harness-bench/harness-testing`: the kits the harness's own tests use, for your vitest suite
 * when you test a harness built on ours (tools, policies, configurations). Needs `vitest` in your
 * project (the assertions and `useStub` use it).
 *
 * ```ts
 * import { runScript, tempWorkspace, expectRunConsistent, useStub, completion, json } from 'harness-bench/harness-testing';
 *
 * const ws = tempWorkspace();
 * const result = await runScript(ws.ws, [{ content: 'done' }]);
 * expectRunConsistent(result);
 * ```
 *
 * For scenario files and cassettes use `harness-bench/testing` (`eval/testing.ts`) instead.
 */
export {
  executedIds,
  expectRunConsistent,
  expectTranscriptInvariants,
  InlineModel,
  rawCall,
  recordingTool,
  runScript,
  tempWorkspace,
  testConfig,
  toolResult,
  type RunScriptOptions,
} from './testing/scripted-runs.ts';
export {
  chunk,
  completion,
  gate,
  json,
  sse,
  startStub,
  textChunks,
  toolCallChunks,
  usageChunk,
  useStub,
  type Responder,
  type SseOptions,
  type StubServer,
} from './testing/stub-server.ts';
export { deterministicDeps } from './deps.ts';
export { ScriptedModel, type ScriptedTurn } from './model/scripted-model.ts';
