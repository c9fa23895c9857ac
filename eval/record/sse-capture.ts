/**
 * Incremental server-sent-events capture for the recorder: fed the bytes of a response body as
 * they pass through to the client, it cuts them into events (a blank line ends an event; `data:`
 * lines are joined with `\n`; comments and `event:`, `id:`, `retry:` fields are dropped, as the
 * cassette keeps `data` only) and stamps each with its delay in ms, measured on an injected clock
 * from the previous event (the first from when the headers arrived).
 * Framing follows https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation.
 */
import type { RecordedEvent } from '../cassette/types.ts';

/** Cuts a byte stream into SSE events with delays. One per response; not reusable. */
export class SseCapture {
  /** The events completed so far, in order. */
  readonly events: RecordedEvent[] = [];
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private data: string[] = [];
  private last: number;

  /**
   * @param now the clock delays are measured on, in ms
   * @param startMs when the headers arrived (the first event's delay is measured from it), in ms
   */
  constructor(
    private readonly now: () => number,
    startMs: number,
  ) {
    this.last = startMs;
  }

  /** Feeds one chunk of the body. Complete events are appended to {@link SseCapture.events}. */
  push(bytes: Uint8Array): void {
    this.buffer += this.decoder.decode(bytes, { stream: true });
    this.drain(false);
  }

  /** Ends the stream: a last event without its closing blank line is kept (the wire had it). */
  finish(): RecordedEvent[] {
    this.buffer += this.decoder.decode();
    this.drain(true);
    return this.events;
  }

  private drain(atEnd: boolean): void {
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A lone `\r` at the end may be the first half of `\r\n`: wait for more unless the stream ended.
      if (!match || (match[0] === '\r' && match.index === this.buffer.length - 1 && !atEnd)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      this.line(line);
    }
    if (atEnd) {
      if (this.buffer !== '') this.line(this.buffer);
      this.buffer = '';
      this.dispatch();
    }
  }

  private line(line: string): void {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    this.data.push(colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, ''));
  }

  private dispatch(): void {
    if (this.data.length === 0) return;
    const at = this.now();
    this.events.push({ data: this.data.join('\n'), delayMs: Math.max(0, Math.round(at - this.last)) });
    this.last = at;
    this.data = [];
  }
}
