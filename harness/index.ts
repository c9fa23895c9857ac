/**
 * harness-bench's harness: the agent runtime as a library. It knows nothing about scoring;
 * the bench (`eval/`) depends on it, never the other way.
 */
export { runHarness, type RunOptions } from './loop/run.ts';
export { STOP_REASONS, type StopReason } from './loop/stop-reasons.ts';
export {
  DEFAULT_CONFIG,
  CONFIG_SCHEMA,
  mergeConfig,
  type HarnessConfig,
  type PartialConfig,
} from './config.ts';
export { deterministicDeps, liveDeps, type HarnessDeps, type HarnessHooks } from './deps.ts';
export type { Determinism } from './types.ts';
export { FAULTS, faultOf, HarnessBenchError, type ErrorJson, type Fault } from './errors.ts';
export {
  EVENT_TYPES,
  type HarnessEvent,
  type HarnessEventType,
  type RunStartEvent,
  type TurnStartEvent,
  type ModelCallEndEvent,
  type ToolCallStartEvent,
  type PolicyDecisionEvent,
  type ApprovalDecisionEvent,
  type ToolCallEndEvent,
  type LoopWarningEvent,
  type CompactionEvent,
  type SubagentStartEvent,
  type SubagentEndEvent,
  type BudgetExhaustedEvent,
  type RunEndEvent,
} from './events.ts';
export {
  buildLedger,
  type Ledger,
  type CallRecord,
  type TurnRecord,
  type RunResult,
  type RunUsage,
} from './ledger.ts';
export {
  ModelError,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type ChatMessage,
} from './model/types.ts';
export { OpenAIModel, liveModelSettings, type OpenAIModelOptions } from './model/openai-model.ts';
export { ScriptedModel } from './model/scripted-model.ts';
export { StreamAssembler, assembleChunks } from './model/stream-assembler.ts';
export { ToolRegistry } from './tools/registry.ts';
export {
  ERROR_TYPES,
  RETRYABLE_ERROR_TYPES,
  decodeToolResult,
  failure,
  resultToModelText,
  type ErrorType,
  type ToolDefinition,
  type ToolResult,
  type ToolOutput,
  type EffectClass,
} from './tools/types.ts';
export { BUILTIN_TOOLS, builtinTools } from './tools/builtin/index.ts';
export { decide, type PolicyInput } from './policy/policy.ts';
export { resolvePath } from './policy/paths.ts';
export {
  decideCommand,
  prepareCall,
  decideCall,
  type CommandDecision,
  type PreparedCall,
} from './policy/command-policy.ts';
export { analyseCommand } from './policy/shell-analysis.ts';
export type { CommandAnalysis, CommandPart } from './policy/shell-analysis-types.ts';
export {
  childScope,
  rootScope,
  policyChain,
  type ChildRestrictions,
  type PolicyScope,
} from './policy/child-policy.ts';
export { escapeReservedTags, type MessageOrigin, type TaintState } from './policy/taint.ts';
export { DEFAULT_SENSITIVE_PATHS, type SensitivePath } from './policy/sensitive-paths.ts';
export type { PolicyDecision, Verdict, ApprovalRequest, ApprovalAnswer } from './policy/types.ts';
export { LocalSandbox } from './sandbox/local.ts';
export { createSandbox, type SandboxKind, type CreateSandboxOptions } from './sandbox/factory.ts';
export { BwrapSandbox, type BwrapOptions } from './sandbox/bwrap.ts';
export { SeatbeltSandbox, seatbeltProfile } from './sandbox/seatbelt.ts';
export { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from './sandbox/limits.ts';
export { SandboxUnavailableError, type Sandbox } from './sandbox/types.ts';
export { prepareContext, type ContextInput, type ContextOutput } from './context/prepare.ts';
export { TokenMeter } from './context/meter.ts';
export { repairTranscript } from './context/repair.ts';
export { shapeOutput, removeSpill } from './context/spill.ts';
export type { RunMemoryOptions } from './run-types.ts';
export { SessionStore, SessionWriter, SessionError } from './memory/session-store.ts';
export { loadSessionFile, type LoadedSession } from './memory/session-load.ts';
export { discoverSkills, SkillCatalog } from './memory/skills.ts';
export { TodoStore, type Todo } from './memory/todos.ts';
