/**
 * Recorded bodies → text: raw header maps of every importer to one shape, `Content-Encoding`
 * decoding, base64 (HAR, Polly.JS chunk arrays), and a response's text to a cassette response
 * (SSE events, JSON body, or text).
 *
 * Decoding follows vcrpy's `decode_response` (`vcr/filters.py`, used by its
 * `decode_compressed_response` option): look at `Content-Encoding`, decompress gzip, deflate or
 * br, and when decompressing fails, keep the bytes as they are ("assume the response was
 * already decompressed": vcrpy's httpx stubs, Polly's fetch adapter and Ruby VCR with
 * `decode_compressed_response` store decoded text under a header that still says `gzip`).
 * Unlike vcrpy, every listed coding is undone, last applied first (RFC 9110 §8.4), and a
 * deflate body without the zlib wrapper is inflated raw too, as urllib3's decoder does.
 */
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import type { RecordedResponse } from '../cassette/types.ts';
import { allowlistHeaders, eventsFromSse, looksLikeSse } from './common.ts';

/** Header name (lower case) → every value, in order. */
export type HeaderLists = Record<string, string[]>;

/**
 * Normalises the header shapes importers meet into {@link HeaderLists}: an object of strings or
 * lists (VCR, nock `headers`), a flat `[name, value, …]` list (nock `rawHeaders`), or HAR's
 * `[{ name, value }]`. Anything else gives `{}`.
 */
export function headerLists(raw: unknown): HeaderLists {
  const out: HeaderLists = {};
  const add = (name: unknown, value: unknown) => {
    if (typeof name !== 'string' || value === null || value === undefined) return;
    (out[name.toLowerCase()] ??= []).push(String(value));
  };
  if (Array.isArray(raw)) {
    if (raw.every((item) => typeof item === 'string'))
      for (let i = 0; i + 1 < raw.length; i += 2) add(raw[i], raw[i + 1]);
    else
      for (const item of raw)
        if (typeof item === 'object' && item !== null)
          add((item as { name?: unknown }).name, (item as { value?: unknown }).value);
    return out;
  }
  if (typeof raw === 'object' && raw !== null)
    for (const [name, value] of Object.entries(raw))
      for (const one of Array.isArray(value) ? value : [value]) add(name, one);
  return out;
}

/** The codings of `Content-Encoding`, in the order they were applied (`identity` dropped). */
export function contentEncodings(headers: HeaderLists): string[] {
  return (headers['content-encoding'] ?? [])
    .flatMap((value) => value.split(','))
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

const DECODERS: Record<string, ((bytes: Uint8Array) => Uint8Array)[]> = {
  gzip: [gunzipSync],
  'x-gzip': [gunzipSync],
  deflate: [inflateSync, inflateRawSync],
  br: [brotliDecompressSync],
};

/** What {@link decodeContent} did: the bytes, the codings it undid and the ones it left. */
export interface DecodedContent {
  bytes: Uint8Array;
  decoded: string[];
  /** Codings that were listed but whose decoder failed or is unknown: the bytes were kept. */
  kept: string[];
}

/**
 * True for bytes that already read as a JSON or SSE body (valid UTF-8 starting with `{`, `[`,
 * `data:`, `event:` or `:`). Brotli streams have no magic number, so a decoded body under a
 * `br` header could otherwise be "decompressed" into garbage.
 */
function looksDecoded(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 64)).toString('utf8').trimStart();
  if (!/^([{[]|data:|event:|:)/.test(head)) return false;
  return !Buffer.from(bytes).toString('utf8').includes('\uFFFD');
}

/**
 * Undoes the `Content-Encoding` codings of a body, last applied first. A coding whose decoder
 * fails (the body was stored already decoded) or that is unknown (`zstd`, `compress`) leaves
 * the bytes as they are; so does `br` on bytes that already read as JSON or SSE. Never throws.
 */
export function decodeContent(bytes: Uint8Array, encodings: readonly string[]): DecodedContent {
  let current = bytes;
  const decoded: string[] = [];
  const kept: string[] = [];
  for (const coding of [...encodings].reverse()) {
    if (coding === 'br' && looksDecoded(current)) {
      kept.push(coding);
      continue;
    }
    let done = false;
    for (const decoder of DECODERS[coding] ?? []) {
      try {
        current = decoder(current);
        done = true;
        break;
      } catch {
        // Try the next decoder of this coding, else keep the bytes.
      }
    }
    (done ? decoded : kept).push(coding);
  }
  return { bytes: current, decoded, kept };
}

/** A body as recorded: text, bytes (`!!binary`, `!binary`, base64), or nothing. */
export type RawBody = string | Uint8Array | null | undefined;

/** Bytes of a raw body (text as UTF-8); `null` for no body. */
function bodyBytes(body: RawBody): Uint8Array | null {
  if (body === null || body === undefined) return null;
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

/** A recorded body as UTF-8 text after undoing its `Content-Encoding`; `null` for no body. */
export function bodyText(body: RawBody, headers: HeaderLists): string | null {
  const bytes = bodyBytes(body);
  if (bytes === null) return null;
  const { bytes: plain } = decodeContent(bytes, contentEncodings(headers));
  return Buffer.from(plain).toString('utf8');
}

/**
 * Decodes base64 content as HAR writes it (`content.encoding: base64`). Polly.JS's node-http
 * adapter stores a compressed body as a JSON array of base64 chunks (`["H4sI…", "AwB5…"]`);
 * the chunks are concatenated.
 */
export function base64Content(text: string): Uint8Array {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      const chunks: unknown = JSON.parse(trimmed);
      if (Array.isArray(chunks) && chunks.every((chunk) => typeof chunk === 'string'))
        return Buffer.concat(chunks.map((chunk) => Buffer.from(chunk, 'base64')));
    } catch {
      // Not a chunk array: plain base64 below.
    }
  }
  return Buffer.from(trimmed, 'base64');
}

/**
 * A response's decoded text → a cassette response: SSE events when the content type says
 * `text/event-stream` or the text starts like SSE, else JSON, else the text itself (noted in
 * `notes` with `at`). An empty body gives a response without body.
 */
export function responseFromText(
  status: number,
  headers: HeaderLists,
  text: string | null,
  at: string,
  notes: string[],
): RecordedResponse {
  const kept = allowlistHeaders(headers);
  if (text === null || text === '') return { status, headers: kept };
  const contentType = (headers['content-type'] ?? []).join(', ');
  if (contentType.includes('text/event-stream') || looksLikeSse(text))
    return { status, headers: kept, events: eventsFromSse(text) };
  try {
    return { status, headers: kept, body: JSON.parse(text) as unknown };
  } catch {
    notes.push(`${at}: the response body is not JSON; kept as text`);
    return { status, headers: kept, body: text };
  }
}
