/**
 * The decision ledger: a per-call and per-turn view built from the event stream only. It is the
 * single source for scoring, replay diffs and every report format.
 */
import type { HarnessEvent } from './events.ts';
import type { StopReason } from './loop/stop-reasons.ts';
import type { PolicyDecision, Verdict } from './policy/types.ts';
import type { ErrorType } from './tools/types.ts';
import type { ChatMessage, ModelRequest } from './model/types.ts';
import type { MessageOrigin } from './policy/taint.ts';

/** Everything decided about one tool call. */
export interface CallRecord {
  callId: string;
  /** The id the model sent when the harness replaced it; `null` when the model sent none. */
  originalId?: string | null;
  turn: number;
  scope: readonly string[];
  tool: string;
  /** Arguments as replayed to the model (always a JSON object string). */
  arguments: string;
  rawArguments?: unknown;
  normalisations: string[];
  verdict: Verdict;
  policy?: PolicyDecision;
  approvedBy?: string;
  executed: boolean;
  ok: boolean;
  errorType?: ErrorType;
  retryable?: boolean;
  /** The text the model saw. */
  content: string;
  loopWarning?: boolean;
}

/** Everything decided about one model turn. */
export interface TurnRecord {
  turn: number;
  scope: readonly string[];
  wrapUp: boolean;
  ok: boolean;
  finishReason: string | null;
  toolCalls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  textToolCall?: string;
  error?: { code: string; message: string };
}

/** The ledger of one run. */
export interface Ledger {
  turns: TurnRecord[];
  calls: CallRecord[];
  stopReason: StopReason | null;
  stopDetail?: string;
}

/** Usage totals of one run. Tokens in tokens, cost in USD, time in ms (injected clock). */
export interface RunUsage {
  /** Model turns, wrap-up included. */
  modelCalls: number;
  turns: number;
  toolCalls: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** The largest prompt of a single request, in tokens. */
  maxPromptTokens: number;
  costUsd: number;
  wallMs: number;
}

/** What a run returns: exactly one stop reason, the transcript, every request sent and the ledger. */
export interface RunResult {
  runId: string;
  stopReason: StopReason;
  stopDetail?: string;
  finalAnswer: string | null;
  /** The conversation as stored (system, task, assistant turns, tool results, harness notes). */
  messages: ChatMessage[];
  /** The origin of each message of `messages`, index for index (system, user, harness note, model, tool; tools marked untrusted). */
  provenance?: MessageOrigin[];
  /** Untrusted tools whose content entered the context during the run (empty: the run stayed clean). */
  taintedBy?: string[];
  /** Every request sent to the model, in order, exactly as sent. */
  requests: ModelRequest[];
  events: HarnessEvent[];
  ledger: Ledger;
  usage: RunUsage;
}

/** Builds the ledger from events. Pure; events of nested scopes are included with their `scope`. */
export function buildLedger(events: readonly HarnessEvent[]): Ledger {
  const turns: TurnRecord[] = [];
  const calls = new Map<string, CallRecord>();
  const order: CallRecord[] = [];
  const wrapUps = new Map<string, boolean>();
  let stopReason: StopReason | null = null;
  let stopDetail: string | undefined;
  const key = (scope: readonly string[], id: string | number) => `${scope.join('/')}#${id}`;
  for (const event of events) {
    switch (event.type) {
      case 'turn_start':
        wrapUps.set(key(event.scope, event.turn), event.wrapUp);
        break;
      case 'model_call_end':
        turns.push({
          turn: event.turn,
          scope: event.scope,
          wrapUp: wrapUps.get(key(event.scope, event.turn)) ?? false,
          ok: event.ok,
          finishReason: event.finishReason,
          toolCalls: event.toolCalls,
          promptTokens: event.usage.promptTokens,
          completionTokens: event.usage.completionTokens,
          costUsd: event.costUsd,
          ...(event.textToolCall ? { textToolCall: event.textToolCall } : {}),
          ...(event.error ? { error: event.error } : {}),
        });
        break;
      case 'tool_call_start': {
        const record: CallRecord = {
          callId: event.callId,
          ...(event.originalId !== undefined ? { originalId: event.originalId } : {}),
          turn: event.turn,
          scope: event.scope,
          tool: event.tool,
          arguments: event.arguments,
          ...(event.rawArguments !== undefined ? { rawArguments: event.rawArguments } : {}),
          normalisations: event.normalisations,
          verdict: 'none',
          executed: false,
          ok: false,
          content: '',
        };
        calls.set(key(event.scope, event.callId), record);
        order.push(record);
        break;
      }
      case 'policy_decision': {
        const record = calls.get(key(event.scope, event.callId));
        if (record) {
          record.policy = event.decision;
          record.verdict = event.action === 'ask' ? 'ask:denied' : event.action;
        }
        break;
      }
      case 'approval_decision': {
        const record = calls.get(key(event.scope, event.callId));
        if (record) {
          record.verdict = event.approved ? 'ask:approved' : 'ask:denied';
          record.approvedBy = event.by;
        }
        break;
      }
      case 'loop_warning': {
        const record = calls.get(key(event.scope, event.callId));
        if (record) record.loopWarning = true;
        break;
      }
      case 'tool_call_end': {
        const record = calls.get(key(event.scope, event.callId));
        if (record) {
          record.executed = event.executed;
          record.ok = event.ok;
          record.verdict = event.verdict;
          record.content = event.content;
          if (event.errorType) record.errorType = event.errorType;
          if (event.retryable !== undefined) record.retryable = event.retryable;
        }
        break;
      }
      case 'run_end':
        if (event.scope.length === 0) {
          stopReason = event.stopReason;
          stopDetail = event.detail;
        }
        break;
      default:
        break;
    }
  }
  return { turns, calls: order, stopReason, ...(stopDetail !== undefined ? { stopDetail } : {}) };
}
