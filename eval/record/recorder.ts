/**
 * The recorder: an injected `fetch` for the `openai` client that hands the response to the
 * client as soon as its headers arrive and copies the body aside as it streams, so streaming
 * stays streaming (`docs/recording-format.md`, "Record"). Every HTTP exchange is
 * kept, errors included: server-sent events with their delays (injected clock), any other body
 * as JSON (or text when it is not JSON). Response headers and the request body are redacted on
 * the way in (`./redact.ts`); request headers are never kept.
 */
import type { Exchange, RecordedRequest, RecordedResponse } from '../cassette/types.ts';
import { redactHeaders, redactRequestBody } from './redact.ts';
import { SseCapture } from './sse-capture.ts';

/** Options of {@link CassetteRecorder}. */
export interface RecorderOptions {
  /** The fetch that reaches the server. @default globalThis.fetch */
  fetch?: typeof globalThis.fetch;
  /** Clock for event delays, in ms. @default performance.now */
  now?: () => number;
}

/** How a captured body ended: read to the end, cancelled by the client, or failed mid-way. */
export type CaptureEnd = 'complete' | 'cancelled' | 'error';

interface Slot {
  request: RecordedRequest;
  status?: number;
  headers?: Record<string, string>;
  sse?: SseCapture;
  text: string;
  decoder: TextDecoder;
  end?: CaptureEnd;
}

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/** Records every exchange that goes through {@link CassetteRecorder.fetch}. One per session. */
export class CassetteRecorder {
  /** The fetch to inject into the `openai` client (`new OpenAI({ fetch })`). */
  readonly fetch: typeof globalThis.fetch;
  /** Things that could not be recorded (connection failures: no response, so no exchange). */
  readonly notes: string[] = [];
  /** Host of the first request, e.g. `api.openai.com`; `null` before any. */
  host: string | null = null;
  private readonly slots: Slot[] = [];

  constructor(options: RecorderOptions = {}) {
    const base = options.fetch ?? globalThis.fetch;
    const now = options.now ?? (() => performance.now());
    this.fetch = async (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      this.host ??= url.hostname;
      const slot: Slot = {
        request: {
          method: (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(),
          path: `${url.pathname}${url.search}`,
          body: parseBody(init?.body),
        },
        text: '',
        decoder: new TextDecoder(),
      };
      this.slots.push(slot);
      let response: Response;
      try {
        response = await base(input, init);
      } catch (error) {
        this.slots.splice(this.slots.indexOf(slot), 1);
        this.notes.push(
          `${slot.request.method} ${slot.request.path}: connection failed, not recorded (${(error as Error)?.message ?? String(error)})`,
        );
        throw error;
      }
      const startMs = now();
      slot.status = response.status;
      slot.headers = redactHeaders(response.headers);
      if ((response.headers.get('content-type') ?? '').includes('text/event-stream'))
        slot.sse = new SseCapture(now, startMs);
      if (!response.body || NULL_BODY_STATUS.has(response.status)) {
        slot.end = 'complete';
        return response;
      }
      const reader = response.body.getReader();
      const finish = (end: CaptureEnd) => {
        if (slot.end) return;
        slot.end = end;
        if (slot.sse) slot.sse.finish();
        else slot.text += slot.decoder.decode();
      };
      // highWaterMark 0: read from the server only when the client asks, never ahead of it.
      const body = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            try {
              const { done, value } = await reader.read();
              if (done) {
                finish('complete');
                controller.close();
                return;
              }
              if (slot.sse) slot.sse.push(value);
              else slot.text += slot.decoder.decode(value, { stream: true });
              controller.enqueue(value);
            } catch (error) {
              finish('error');
              controller.error(error);
            }
          },
          cancel(reason) {
            finish('cancelled');
            return reader.cancel(reason);
          },
        },
        { highWaterMark: 0 },
      );
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
  }

  /** Exchanges whose body was cut short (cancelled or failed): `{index, end}`. */
  incomplete(): { index: number; end: CaptureEnd | 'unread' }[] {
    return this.slots.flatMap((slot, index) =>
      slot.end === 'complete' || slot.status === undefined
        ? []
        : [{ index, end: slot.end ?? ('unread' as const) }],
    );
  }

  /**
   * The exchanges so far, in request order. A body still being read is taken as far as it got
   * (a cancelled stream keeps the events that arrived). Requests still waiting for their
   * headers are left out.
   */
  exchanges(): Exchange[] {
    const out: Exchange[] = [];
    for (const slot of this.slots) {
      if (slot.status === undefined || !slot.headers) continue;
      const response: RecordedResponse = { status: slot.status, headers: { ...slot.headers } };
      if (slot.sse) response.events = [...slot.sse.events];
      else
        response.body = parseResponseText(
          slot.end ? slot.text : slot.text + slot.decoder.decode(new Uint8Array(), { stream: true }),
        );
      out.push({ request: structuredClone(slot.request), response });
    }
    return out;
  }
}

/** A JSON text body → object (user ids redacted); anything else → `null` (not recorded). */
function parseBody(body: unknown): Record<string, unknown> | null {
  if (typeof body !== 'string') return null;
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? redactRequestBody(value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** A response body text → parsed JSON, or the text itself when it is not JSON. */
function parseResponseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
