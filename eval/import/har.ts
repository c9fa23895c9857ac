/**
 * HTTP Archive (HAR 1.2, http://www.softwareishard.com/blog/har-12-spec/) → exchanges and
 * non-model traffic: `log.entries[]` with `request { method, url, postData { text } }` and
 * `response { status, headers [{ name, value }], content { text, encoding? } }`. Polly.JS
 * (`recording.har`, JSON, or `recording.har.yaml`) writes this format; its node-http adapter
 * keeps compressed bodies as `encoding: base64` with a JSON array of base64 chunks, its fetch
 * adapter stores decoded text under a `content-encoding` header (both handled in `./body.ts`).
 * Polly's local-storage form wraps the archive in `{ "<recording name>": { log } }`.
 * Entries are taken in file order.
 */
import { InputError } from '../errors.ts';
import type { RecordedResponse } from '../cassette/types.ts';
import { base64Content, bodyText, headerLists, responseFromText } from './body.ts';
import {
  isChatCompletionsPath,
  partitionTraffic,
  type PartitionedTraffic,
  type ReadInteraction,
} from './classify.ts';
import { parseJsonObject, splitUri, isObj, type Obj } from './common.ts';

/** What a HAR yields: the partitioned traffic, `log.creator` as `name version`, and notes. */
export interface HarImport extends PartitionedTraffic {
  creator?: string;
  notes: string[];
}

/** The `log` of a HAR document (also inside Polly's one-key local-storage wrapper), or `undefined`. */
function harLog(doc: unknown): { entries: unknown[]; creator?: unknown } | undefined {
  if (!isObj(doc)) return undefined;
  if (isObj(doc.log) && Array.isArray(doc.log.entries)) return doc.log as { entries: unknown[] };
  const values = Object.values(doc);
  if (values.length === 1 && isObj(values[0])) return harLog(values[0]);
  return undefined;
}

/** True when the document is a HAR (or Polly's wrapper of one). */
export function isHarDocument(doc: unknown): boolean {
  return harLog(doc) !== undefined;
}

function requestBodyText(request: Obj): string | null {
  const post = request.postData;
  if (!isObj(post)) return null;
  if (typeof post.text === 'string') return post.text;
  // Sourcegraph's Polly setup stores JSON bodies parsed, as `textJSON`.
  if ('textJSON' in post) return JSON.stringify(post.textJSON);
  return null;
}

function responseOf(response: Obj, status: number, at: string, notes: string[]): RecordedResponse {
  const headers = headerLists(response.headers);
  const content = isObj(response.content) ? response.content : {};
  const text = typeof content.text === 'string' ? content.text : null;
  if (text === null) return responseFromText(status, headers, null, at, notes);
  const raw = content.encoding === 'base64' ? base64Content(text) : text;
  return responseFromText(status, headers, bodyText(raw, headers), `${at}/content/text`, notes);
}

/**
 * Converts a parsed HAR document to model exchanges and non-model traffic.
 *
 * @throws InputError (file, `/log/entries/<i>/…`, reason) when an entry lacks a request or
 *   URL, or a chat-completions request body is not a JSON object.
 */
export function exchangesFromHar(doc: unknown, file: string): HarImport {
  const log = harLog(doc);
  if (!log)
    throw new InputError([{ file, path: '/log/entries', reason: 'not a HAR: no "log.entries" list' }]);
  const notes: string[] = [];
  const read = log.entries.map((entry, i): ReadInteraction => {
    const at = `/log/entries/${i}`;
    if (!isObj(entry) || !isObj(entry.request) || typeof entry.request.url !== 'string')
      throw new InputError([
        { file, path: `${at}/request/url`, reason: 'an entry needs a request with a URL' },
      ]);
    const { request } = entry;
    const response = isObj(entry.response) ? entry.response : {};
    const url = entry.request.url as string;
    let split: { host: string; path: string };
    try {
      split = splitUri(url);
    } catch {
      throw new InputError([{ file, path: `${at}/request/url`, reason: `not a URL: ${url}` }]);
    }
    const method = typeof request.method === 'string' ? request.method.toUpperCase() : 'GET';
    const parsed = parseJsonObject(requestBodyText(request));
    if (parsed instanceof Error && method === 'POST' && isChatCompletionsPath(split.path))
      throw new InputError([
        {
          file,
          path: `${at}/request/postData/text`,
          reason: `the request body is not a JSON object (${parsed.message})`,
        },
      ]);
    const body = parsed instanceof Error ? null : parsed;
    const status =
      typeof response.status === 'number' && Number.isInteger(response.status) ? response.status : 0;
    const started = typeof entry.startedDateTime === 'string' ? Date.parse(entry.startedDateTime) : NaN;
    return {
      index: i,
      method,
      url,
      ...split,
      body,
      status,
      ...(Number.isFinite(started) ? { recordedAt: new Date(started).toISOString() } : {}),
      exchange: () => ({
        request: { method, path: split.path, body },
        response: responseOf(response, status, `${at}/response`, notes),
      }),
    };
  });
  const creator = isObj(log.creator)
    ? [log.creator.name, log.creator.version].filter((part) => typeof part === 'string').join(' ')
    : '';
  return { ...partitionTraffic(read), ...(creator ? { creator } : {}), notes };
}
