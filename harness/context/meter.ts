/**
 * The size of the next request before it is sent. The tokenizer counts the request as it will
 * go out (messages, the tool output just produced, the reminder, tool schemas); when the
 * provider reported `prompt_tokens` for the previous request, the estimate is that reported
 * count plus the tokenizer's count of what was added since, so a provider that counts more
 * (its own chat template, hidden system text, another tokenizer) drives the compaction decision
 * with its own number (handed case D04, Aider-AI/aider#892: a local estimate that ignored the
 * system prompt and schemas kept auto-compaction from ever firing). After a layer rewrites the
 * history the reported count no longer describes a prefix of the request and is set aside until
 * the next report.
 */
import type { HarnessEvent } from '../events.ts';
import type { ChatMessage, ModelRequest, ToolSchema, UserMessage } from '../model/types.ts';
import { countMessage, countRequest, countTools, HistoryTokens, TOKENS_PER_REQUEST } from './tokens.ts';

/** Estimates request sizes in tokens, calibrated by reported usage. */
export class TokenMeter {
  /** Reported minus counted tokens of the last request whose prefix still stands (≥ 0). */
  private drift = 0;
  private eventIndex = 0;
  private pending: { requestTokens: number; compaction: boolean } | undefined;
  /** The running count of the working history (one list per run). */
  private readonly history = new HistoryTokens();
  /** The last reported and counted sizes, for reports: `{ reported, counted }`. */
  last: { reported: number; counted: number } | undefined;

  /** Tokenizer count of `request` plus the calibration from the last reported usage. */
  estimate(request: Pick<ModelRequest, 'messages' | 'tools'>): number {
    return countRequest(request) + this.drift;
  }

  /**
   * Tokenizer count of the request made of `history`, then `reminder`, with `tools`: the same
   * number as `countRequest` of that request, with the history's sum kept incrementally (only
   * messages appended since the last call are looked at). No calibration added.
   */
  count(
    history: readonly ChatMessage[],
    reminder: UserMessage | undefined,
    tools?: readonly ToolSchema[],
  ): number {
    return (
      TOKENS_PER_REQUEST +
      this.history.of(history) +
      (reminder ? countMessage(reminder) : 0) +
      countTools(tools)
    );
  }

  /** The working history was rewritten in place (a layer, a repair): its sum is recounted next time. */
  historyRewritten(): void {
    this.history.reset();
  }

  /** `next` took the place of `previous` with `freed` tokens fewer (stubs; or 0 for a copy): the sum follows without a recount. */
  historyReplaced(previous: readonly ChatMessage[], next: readonly ChatMessage[], freed: number): void {
    this.history.replace(previous, next, freed);
  }

  /** The calibration now added to every count (tokens). */
  get driftTokens(): number {
    return this.drift;
  }

  /**
   * Learns from a reported count: `counted` is the tokenizer's count of that request. A provider
   * that counts fewer tokens than the tokenizer does not lower estimates (they stay conservative).
   */
  observe(counted: number, reported: number): void {
    this.last = { reported, counted };
    this.drift = Math.max(0, reported - counted);
  }

  /** The history was rewritten: the last report no longer describes a prefix of the next request. */
  invalidate(): void {
    this.drift = 0;
  }

  /**
   * Reads the top-level `turn_start` / `model_call_end` pairs added since the last call and
   * learns from every reported usage (compaction summary calls excluded: their request is not
   * the conversation).
   */
  observeEvents(events: readonly HarnessEvent[]): void {
    for (; this.eventIndex < events.length; this.eventIndex += 1) {
      const event = events[this.eventIndex]!;
      if (event.scope.length > 0) continue;
      if (event.type === 'turn_start')
        this.pending = { requestTokens: event.requestTokens, compaction: event.compaction === true };
      else if (event.type === 'model_call_end' && this.pending) {
        if (event.ok && event.usage.source === 'reported' && !this.pending.compaction)
          this.observe(this.pending.requestTokens, event.usage.promptTokens);
        this.pending = undefined;
      }
    }
  }
}
