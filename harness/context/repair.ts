/**
 * Transcript repair before a request is built from a conversation the harness did not produce
 * itself (a resumed session, messages handed in): afterwards TI-1…TI-4 hold for the calls in
 * it. A call without a result gets a synthetic `interrupted` result right after its assistant
 * message (handed case G01, anthropics/claude-code#1894: after an interrupt every request failed
 * with "tool_use ids were found without tool_result blocks"); a tool message that does not
 * answer a call of the assistant message right before it, or answers one twice, is dropped
 * (G02, langchain-ai/langchainjs#11021); results come in call order; argument text that is not a
 * JSON object is replayed as `{}` (TI-4). Pure.
 */
import type { AssistantMessage, ChatMessage, ToolMessage, WireToolCall } from '../model/types.ts';
import { failure, resultToModelText } from '../tools/types.ts';

/** What a repair changed; indices are positions in the input. */
export interface RepairReport {
  dropped: { index: number; toolCallId: string; reason: string }[];
  inserted: { afterCallId: string; message: ToolMessage }[];
  argumentsReplaced: string[];
  /** Tool messages moved into call order. */
  reordered: number;
}

/** True when nothing was changed. */
export function repairIsEmpty(report: RepairReport): boolean {
  return (
    report.dropped.length === 0 &&
    report.inserted.length === 0 &&
    report.argumentsReplaced.length === 0 &&
    report.reordered === 0
  );
}

function isObjectText(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * The synthetic result of a call that never got one: `interrupted`, saying whether the user
 * stopped it or the session ended under it, and that it may have partly run.
 */
export function interruptedResult(call: WireToolCall, byUser: boolean): ToolMessage {
  const why = byUser
    ? 'stopped by the user before it finished'
    : 'the session ended (interrupt, crash or restart) before this call returned a result';
  return {
    role: 'tool',
    tool_call_id: call.id,
    content: resultToModelText(
      failure(
        call.function.name,
        'interrupted',
        `${why}; it may have partly run, so check its effects before you repeat it`,
      ),
    ),
  };
}

/**
 * Repairs `messages` (see the file comment). `interruptedByUser` lists call ids the user
 * interrupted (session `interrupt` events), which changes the synthetic message's wording.
 * Returns the input array itself when nothing needed repair.
 */
export function repairTranscript(
  messages: readonly ChatMessage[],
  interruptedByUser: ReadonlySet<string> = new Set(),
): { messages: ChatMessage[]; report: RepairReport } {
  const report: RepairReport = { dropped: [], inserted: [], argumentsReplaced: [], reordered: 0 };
  const out: ChatMessage[] = [];
  let i = 0;
  while (i < messages.length) {
    const message = messages[i]!;
    if (message.role === 'tool') {
      report.dropped.push({
        index: i,
        toolCallId: message.tool_call_id,
        reason: 'it does not answer a call of the assistant message right before it',
      });
      i += 1;
      continue;
    }
    if (message.role !== 'assistant' || !message.tool_calls || message.tool_calls.length === 0) {
      out.push(message);
      i += 1;
      continue;
    }
    let assistant: AssistantMessage = message;
    if (message.tool_calls.some((c) => !isObjectText(c.function.arguments))) {
      const calls = message.tool_calls.map((c) => {
        if (isObjectText(c.function.arguments)) return c;
        report.argumentsReplaced.push(c.id);
        return { ...c, function: { ...c.function, arguments: '{}' } };
      });
      assistant = { ...message, tool_calls: calls };
    }
    out.push(assistant);
    let end = i + 1;
    while (end < messages.length && messages[end]!.role === 'tool') end += 1;
    const run = messages.slice(i + 1, end) as ToolMessage[];
    const used = new Set<number>();
    let position = 0;
    for (const call of assistant.tool_calls!) {
      const k = run.findIndex((r, index) => !used.has(index) && r.tool_call_id === call.id);
      if (k >= 0) {
        if (k !== position) report.reordered += 1;
        used.add(k);
        out.push(run[k]!);
      } else {
        const synthetic = interruptedResult(call, interruptedByUser.has(call.id));
        report.inserted.push({ afterCallId: call.id, message: synthetic });
        out.push(synthetic);
      }
      position += 1;
    }
    run.forEach((r, k) => {
      if (!used.has(k))
        report.dropped.push({
          index: i + 1 + k,
          toolCallId: r.tool_call_id,
          reason: 'a second result for the call, or not a call of the assistant message right before it',
        });
    });
    i = end;
  }
  return repairIsEmpty(report) ? { messages: messages as ChatMessage[], report } : { messages: out, report };
}
