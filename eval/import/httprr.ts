/**
 * Go's httprr traces → exchanges and non-model traffic. The format (`rsc.io/httprr`, also
 * vendored as `golang.org/x/oscar/internal/httprr` and `github.com/tmc/langchaingo/internal/httprr`)
 * is a header line `httprr trace v1`, then one record per round trip: a line `N M` and the
 * request and the response as Go writes them on the wire (`http.Request.Write`,
 * `http.Response.Write`), exactly N and M bytes. langchaingo also commits them gzipped
 * (`.httprr.gz`); `importRecordingDetailed` unzips before this reader sees the bytes.
 *
 * The request line holds the absolute URL (`POST https://api.openai.com/v1/chat/completions
 * HTTP/1.1`) or a path with a `Host` header; bodies may be `Transfer-Encoding: chunked`
 * (Go writes a body of unknown length that way) and `Content-Encoding`-coded (undone in
 * `./body.ts`). The response's `Date` header dates the recording. Records are taken in file order.
 */
import { InputError } from '../errors.ts';
import { bodyText, type HeaderLists, responseFromText } from './body.ts';
import {
  isChatCompletionsPath,
  partitionTraffic,
  type PartitionedTraffic,
  type ReadInteraction,
} from './classify.ts';
import { parseJsonObject, splitUri } from './common.ts';

/** The first line of every httprr trace. */
export const HTTPRR_HEADER = 'httprr trace v1';

/** True when the bytes (or text) open with the httprr header line. */
export function isHttprr(data: Uint8Array | string): boolean {
  const head =
    typeof data === 'string' ? data.slice(0, 20) : Buffer.from(data.subarray(0, 20)).toString('latin1');
  return /^httprr trace v1\r?\n/.test(head);
}

/** One HTTP message as written on the wire: its start line, headers and body bytes. */
interface WireMessage {
  start: string;
  headers: HeaderLists;
  body: Uint8Array;
}

function problem(file: string, path: string, reason: string): InputError {
  return new InputError([{ file, path, reason }]);
}

/** Undoes `Transfer-Encoding: chunked` (RFC 9112 §7.1); trailers are dropped. */
function dechunk(bytes: Buffer, file: string, at: string): Buffer {
  const parts: Buffer[] = [];
  let pos = 0;
  for (;;) {
    const eol = bytes.indexOf('\n', pos);
    if (eol < 0) throw problem(file, at, 'a chunked body ends without its last chunk (truncated)');
    const size = Number.parseInt(bytes.subarray(pos, eol).toString('latin1').split(';')[0]!.trim(), 16);
    if (!Number.isFinite(size)) throw problem(file, at, 'a chunked body has a chunk size that is not hex');
    pos = eol + 1;
    if (size === 0) return Buffer.concat(parts);
    if (pos + size > bytes.length)
      throw problem(file, at, 'a chunked body is shorter than its chunk sizes (truncated)');
    parts.push(bytes.subarray(pos, pos + size));
    pos += size;
    if (bytes[pos] === 0x0d) pos += 1;
    if (bytes[pos] === 0x0a) pos += 1;
  }
}

/** Parses one wire message (`\r\n` or bare `\n` line ends). */
function parseMessage(bytes: Buffer, file: string, at: string): WireMessage {
  let end = bytes.indexOf('\r\n\r\n');
  let sep = 4;
  const bare = bytes.indexOf('\n\n');
  if (end < 0 || (bare >= 0 && bare < end)) {
    end = bare;
    sep = 2;
  }
  const headText = (end < 0 ? bytes : bytes.subarray(0, end)).toString('latin1');
  const [start = '', ...lines] = headText.split(/\r?\n/);
  const headers: HeaderLists = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    (headers[line.slice(0, colon).trim().toLowerCase()] ??= []).push(line.slice(colon + 1).trim());
  }
  let body = end < 0 ? Buffer.alloc(0) : bytes.subarray(end + sep);
  const chunked = (headers['transfer-encoding'] ?? []).some((value) => /chunked/i.test(value));
  if (chunked) body = dechunk(body, file, at);
  else {
    const length = Number(headers['content-length']?.[0]);
    if (Number.isInteger(length) && length >= 0 && length < body.length) body = body.subarray(0, length);
    if (Number.isInteger(length) && length > body.length)
      throw problem(
        file,
        at,
        `the body has ${body.length} bytes but Content-Length says ${length} (truncated)`,
      );
  }
  return { start, headers, body };
}

/** The records of a trace as request and response bytes. @throws InputError on a malformed record. */
function records(data: Buffer, file: string): { request: Buffer; response: Buffer }[] {
  const first = data.indexOf('\n');
  if (!isHttprr(data) || first < 0)
    throw problem(file, '', `not an httprr trace: the first line is not "${HTTPRR_HEADER}"`);
  const out: { request: Buffer; response: Buffer }[] = [];
  let pos = first + 1;
  while (pos < data.length) {
    const at = `/records/${out.length}`;
    const eol = data.indexOf('\n', pos);
    const sizes = /^(\d+) (\d+)\r?$/.exec(data.subarray(pos, eol < 0 ? data.length : eol).toString('latin1'));
    if (eol < 0 || !sizes)
      throw problem(file, at, 'a record must start with a line "<request bytes> <response bytes>"');
    const requestEnd = eol + 1 + Number(sizes[1]);
    const responseEnd = requestEnd + Number(sizes[2]);
    if (responseEnd > data.length)
      throw problem(
        file,
        at,
        `the record needs ${responseEnd - eol - 1} bytes but the file ends after ${data.length - eol - 1} (truncated)`,
      );
    out.push({
      request: data.subarray(eol + 1, requestEnd),
      response: data.subarray(requestEnd, responseEnd),
    });
    pos = responseEnd;
  }
  return out;
}

/**
 * Converts an httprr trace to model exchanges and non-model traffic.
 *
 * @throws InputError (file, `/records/<i>/…`, reason) for a file that is not a trace, a record
 *   whose size line is missing or whose bytes run past the end (truncated), a request line
 *   that is not `METHOD URL HTTP/x`, a response whose status line has no status, or a
 *   chat-completions request whose body is not a JSON object.
 */
export function exchangesFromHttprr(
  data: Uint8Array,
  file: string,
): PartitionedTraffic & { notes: string[] } {
  const notes: string[] = [];
  const read = records(Buffer.from(data), file).map(({ request, response }, i): ReadInteraction => {
    const at = `/records/${i}`;
    const req = parseMessage(request, file, `${at}/request`);
    const line = /^([A-Z]+) (\S+) HTTP\/[\d.]+$/.exec(req.start.trim());
    if (!line)
      throw problem(
        file,
        `${at}/request`,
        `not an HTTP request line: ${JSON.stringify(req.start.slice(0, 80))}`,
      );
    const method = line[1]!;
    const target = line[2]!;
    const url = /^https?:\/\//.test(target)
      ? target
      : `https://${req.headers.host?.[0] ?? 'unknown'}${target}`;
    const split = splitUri(url);
    const parsed = parseJsonObject(bodyText(req.body, req.headers));
    if (parsed instanceof Error && method === 'POST' && isChatCompletionsPath(split.path))
      throw problem(file, `${at}/request/body`, `the request body is not a JSON object (${parsed.message})`);
    const body = parsed instanceof Error ? null : parsed;
    const res = parseMessage(response, file, `${at}/response`);
    const status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(res.start.trim())?.[1]);
    if (!Number.isInteger(status))
      throw problem(
        file,
        `${at}/response`,
        `not an HTTP status line: ${JSON.stringify(res.start.slice(0, 80))}`,
      );
    const date = Date.parse(res.headers.date?.[0] ?? '');
    return {
      index: i,
      method,
      url,
      ...split,
      body,
      status,
      ...(Number.isFinite(date) ? { recordedAt: new Date(date).toISOString() } : {}),
      exchange: () => ({
        request: { method, path: split.path, body },
        response: responseFromText(
          status,
          res.headers,
          bodyText(res.body, res.headers),
          `${at}/response`,
          notes,
        ),
      }),
    };
  });
  return { ...partitionTraffic(read), notes };
}
