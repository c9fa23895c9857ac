/**
 * harness-bench's harness: the agent runtime as a library. It knows nothing about scoring;
 * the bench (`eval/`) depends on it, never the other way.
 */
export { runHarness, type RunOptions } from './loop/run.ts';
export { STOP_REASONS, type StopReason } from './loop/stop-reasons.ts';
export { DEFAULT_CONFIG, CONFIG_SCHEMA, mergeConfig, type HarnessConfig, type PartialConfig } from './config.ts';
export { deterministicDeps, liveDeps, type HarnessDeps } from './deps.ts';
export { EVENT_TYPES, type HarnessEvent, type HarnessEventType } from './events.ts';
export { buildLedger, type Ledger, type CallRecord, type TurnRecord, type RunResult, type RunUsage } from './ledger.ts';
export { ModelError, type Model, type ModelRequest, type ModelResponse, type ChatMessage } from './model/types.ts';
export { OpenAIModel, liveModelSettings, type OpenAIModelOptions } from './model/openai-model.ts';
export { ScriptedModel } from './model/scripted-model.ts';
export { StreamAssembler, assembleChunks } from './model/stream-assembler.ts';
export { ToolRegistry } from './tools/registry.ts';
export { ERROR_TYPES, type ErrorType, type ToolDefinition, type ToolResult, type ToolOutput, type EffectClass } from './tools/types.ts';
export { BUILTIN_TOOLS, builtinTools } from './tools/builtin/index.ts';
export { decide, type PolicyInput } from './policy/policy.ts';
export { resolvePath } from './policy/paths.ts';
export type { PolicyDecision, Verdict, ApprovalRequest, ApprovalAnswer } from './policy/types.ts';
export { LocalSandbox } from './sandbox/local.ts';
export type { Sandbox } from './sandbox/types.ts';
