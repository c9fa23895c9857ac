/**
 * WireMock (https://wiremock.org, the JVM's HTTP mock server, also used from Go, Python and
 * JS test suites) → exchanges and non-model traffic. Two shapes are read:
 * - **stub mappings**, what WireMock's recorder and snapshot write under `mappings/`
 *   (https://wiremock.org/docs/record-playback/): one `{ request, response }` per file, or a
 *   `{ mappings: [...] }` list. The request is a matcher: `method`, one of `url`, `urlPath`,
 *   `urlPattern`, `urlPathPattern`, `urlPathTemplate`, and `bodyPatterns`, whose `equalToJson`
 *   (an object or JSON text) is the recorded request body; with `ignoreExtraElements` it may be
 *   partial, which the notes say. A stub with no `equalToJson` recorded no request: its
 *   exchange is response-only (`body: null`). The response is `status`, `headers` and one of
 *   `body` (text), `jsonBody` (parsed), `base64Body`, or `bodyFileName`, read from the
 *   `__files` folder beside the mappings folder (WireMock's layout).
 * - **the request journal** (`GET /__admin/requests`, https://wiremock.org/docs/verifying/):
 *   `{ requests: [{ request: { url, absoluteUrl, method, body | bodyAsBase64, loggedDate },
 *   response | responseDefinition }] }`, newest first as WireMock returns it; read oldest first.
 *
 * Order of stubs: a scenario (`scenarioName`, `requiredScenarioState`, `newScenarioState`) is
 * followed from `Started` through its states; other stubs keep their order (`insertionIndex`
 * when every stub has one). A response written as a template (`transformers` with
 * `response-template`, or `{{…}}` handlebars in the body) is a generator, not a recording, and
 * is refused with the reason.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { InputError } from '../errors.ts';
import { bodyText, headerLists, responseFromText, type HeaderLists, type RawBody } from './body.ts';
import {
  isChatCompletionsPath,
  partitionTraffic,
  type PartitionedTraffic,
  type ReadInteraction,
} from './classify.ts';
import { interactionFromParts } from './parts.ts';
import { isObj, type Obj } from './common.ts';

const URL_KEYS = ['url', 'urlPath', 'urlPattern', 'urlPathPattern', 'urlPathTemplate'] as const;

/** True for one stub mapping: a `request` with a method or a URL matcher, and a `response` object. */
function isStub(value: unknown): value is { request: Obj; response: Obj } {
  return (
    isObj(value) &&
    isObj(value.request) &&
    isObj(value.response) &&
    (typeof value.request.method === 'string' ||
      URL_KEYS.some((k) => typeof (value.request as Obj)[k] === 'string'))
  );
}

/** True for WireMock stub mappings: one stub, or `{ mappings: [stub, …] }`. */
export function isWireMockMappings(doc: unknown): boolean {
  if (isStub(doc)) return true;
  return isObj(doc) && Array.isArray(doc.mappings) && doc.mappings.length > 0 && doc.mappings.every(isStub);
}

/** True for a WireMock request journal: `{ requests: [{ request: { url, method }, … }] }`. */
export function isWireMockJournal(doc: unknown): boolean {
  return (
    isObj(doc) &&
    Array.isArray(doc.requests) &&
    doc.requests.length > 0 &&
    doc.requests.every(
      (e) =>
        isObj(e) &&
        isObj(e.request) &&
        typeof e.request.url === 'string' &&
        typeof e.request.method === 'string',
    )
  );
}

/** A URL matcher as a path: a regex's escapes removed (`\\?` → `?`); `.*`-style wildcards are noted. */
function pathOf(request: Obj, at: string, notes: string[]): string {
  const key = URL_KEYS.find((k) => typeof request[k] === 'string');
  if (!key) return '/';
  const raw = request[key] as string;
  if (key === 'url' || key === 'urlPath' || key === 'urlPathTemplate') return raw;
  const path = raw.replace(/\\(.)/g, '$1').replace(/^\^|\$$/g, '');
  if (/[*+[\]()|]/.test(path))
    notes.push(`${at}/request/${key}: a URL pattern (${raw}); its text is kept as the path`);
  return path;
}

/** The recorded request body of a stub: its `equalToJson` pattern, or `null` when none was recorded. */
function stubBody(request: Obj, file: string, at: string, notes: string[]): Obj | null {
  const patterns = Array.isArray(request.bodyPatterns) ? request.bodyPatterns : [];
  for (const [i, pattern] of patterns.entries()) {
    if (!isObj(pattern) || !('equalToJson' in pattern)) continue;
    let value = pattern.equalToJson;
    if (typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch (error) {
        throw new InputError([
          {
            file,
            path: `${at}/request/bodyPatterns/${i}/equalToJson`,
            reason: `not JSON: ${(error as Error).message}`,
          },
        ]);
      }
    }
    if (!isObj(value))
      throw new InputError([
        {
          file,
          path: `${at}/request/bodyPatterns/${i}/equalToJson`,
          reason: 'the request body must be a JSON object',
        },
      ]);
    if (pattern.ignoreExtraElements === true)
      notes.push(
        `${at}/request: the body is a matcher with ignoreExtraElements: the client may have sent more fields`,
      );
    return value;
  }
  return null;
}

function isTemplate(response: Obj, text: string | null): boolean {
  const transformers = Array.isArray(response.transformers) ? response.transformers : [];
  return transformers.includes('response-template') || /\{\{[^}]*\}\}/.test(text ?? '');
}

/**
 * The response body of a stub: `body`, `jsonBody`, `base64Body` (bytes; compressed ones are
 * decoded by their `Content-Encoding` afterwards) or the `bodyFileName` file.
 */
function stubResponseBody(response: Obj, file: string, at: string): RawBody {
  if (typeof response.body === 'string') return response.body;
  if ('jsonBody' in response) return JSON.stringify(response.jsonBody);
  if (typeof response.base64Body === 'string')
    return new Uint8Array(Buffer.from(response.base64Body, 'base64'));
  if (typeof response.bodyFileName === 'string') {
    // WireMock's root holds `mappings/` and `__files/`; a body file is named relative to `__files/`.
    const candidates = [
      join(dirname(resolve(file)), '..', '__files', response.bodyFileName),
      join(dirname(resolve(file)), '__files', response.bodyFileName),
    ];
    for (const candidate of candidates) {
      try {
        return new Uint8Array(readFileSync(candidate));
      } catch {
        // next candidate
      }
    }
    throw new InputError([
      {
        file,
        path: `${at}/response/bodyFileName`,
        reason: `the body file ${response.bodyFileName} is not in the __files folder beside the mappings (${candidates[0]})`,
      },
    ]);
  }
  return null;
}

/** Stubs in the order a client met them: each scenario followed from `Started` through its states. */
function orderStubs(stubs: readonly Obj[]): number[] {
  const indexes = stubs.map((_, i) => i);
  if (stubs.every((s) => typeof s.insertionIndex === 'number'))
    indexes.sort((a, b) => (stubs[a]!.insertionIndex as number) - (stubs[b]!.insertionIndex as number));
  const out: number[] = [];
  const taken = new Set<number>();
  for (const i of indexes) {
    if (taken.has(i)) continue;
    const scenario = stubs[i]!.scenarioName;
    if (typeof scenario !== 'string') {
      out.push(i);
      taken.add(i);
      continue;
    }
    let state: unknown = 'Started';
    for (let guard = 0; guard <= stubs.length; guard++) {
      const next = indexes.find(
        (j) =>
          !taken.has(j) &&
          stubs[j]!.scenarioName === scenario &&
          (stubs[j]!.requiredScenarioState ?? 'Started') === state,
      );
      if (next === undefined) break;
      out.push(next);
      taken.add(next);
      state = stubs[next]!.newScenarioState;
      if (state === undefined) break;
    }
    // States that no chain reached keep their order.
    for (const j of indexes)
      if (!taken.has(j) && stubs[j]!.scenarioName === scenario) {
        out.push(j);
        taken.add(j);
      }
  }
  return out;
}

/**
 * Converts WireMock stub mappings or a request journal ({@link isWireMockMappings},
 * {@link isWireMockJournal}) to model exchanges and non-model traffic.
 *
 * @throws InputError (file, JSON path, reason) for a stub whose `equalToJson` is not a JSON
 *   object, a body file that is not there, a templated response, or a document of neither shape.
 */
export function exchangesFromWireMock(doc: unknown, file: string): PartitionedTraffic & { notes: string[] } {
  const notes: string[] = [];
  if (isWireMockJournal(doc))
    return { ...journalTraffic((doc as { requests: Obj[] }).requests, file, notes), notes };
  if (!isWireMockMappings(doc))
    throw new InputError([
      {
        file,
        path: '',
        reason:
          'not WireMock stub mappings ({ request, response } or { mappings }) or a request journal ({ requests })',
      },
    ]);
  const single = isStub(doc);
  const stubs = single ? [doc as Obj] : ((doc as Obj).mappings as Obj[]);
  const read = orderStubs(stubs).map((i): ReadInteraction => {
    const stub = stubs[i]!;
    const at = single ? '' : `/mappings/${i}`;
    const request = stub.request as Obj;
    const response = stub.response as Obj;
    const method =
      typeof request.method === 'string' && request.method !== 'ANY' ? request.method.toUpperCase() : 'POST';
    const path = pathOf(request, at, notes);
    const body = stubBody(request, file, at, notes);
    const status = typeof response.status === 'number' ? response.status : 200;
    const headers = headerLists(response.headers);
    const text = bodyText(stubResponseBody(response, file, at), headers);
    if (isTemplate(response, text))
      throw new InputError([
        {
          file,
          path: `${at}/response`,
          reason:
            'a response template (WireMock response-template / {{…}}) generates answers: it is not a recorded response',
        },
      ]);
    const model = method === 'POST' && isChatCompletionsPath(path);
    return {
      index: i,
      method,
      url: path,
      host: '',
      path,
      // A stub that recorded no request body still answered a chat completion: response-only.
      body: body ?? (model ? { messages: [] } : null),
      status,
      exchange: () => ({
        request: { method, path, body },
        response: responseFromText(status, headers, text, `${at}/response`, notes),
      }),
    };
  });
  return { ...partitionTraffic(read), host: null, notes };
}

function journalTraffic(entries: readonly Obj[], file: string, notes: string[]): PartitionedTraffic {
  const read = entries
    .map((entry, i) => ({ entry, i }))
    .reverse()
    .map(({ entry, i }): ReadInteraction => {
      const at = `/requests/${i}`;
      const request = entry.request as Obj;
      const url = typeof request.absoluteUrl === 'string' ? request.absoluteUrl : (request.url as string);
      const method = (request.method as string).toUpperCase();
      const requestText = bodyText(
        typeof request.bodyAsBase64 === 'string'
          ? new Uint8Array(Buffer.from(request.bodyAsBase64, 'base64'))
          : typeof request.body === 'string'
            ? request.body
            : null,
        headerLists(request.headers),
      );
      const answered = isObj(entry.response)
        ? entry.response
        : isObj(entry.responseDefinition)
          ? entry.responseDefinition
          : {};
      const status = typeof answered.status === 'number' ? answered.status : 0;
      const headers: HeaderLists = headerLists(answered.headers);
      // The logged response keeps the bytes as sent (`bodyAsBase64`, gzip included): prefer them.
      const text = bodyText(
        typeof answered.bodyAsBase64 === 'string'
          ? new Uint8Array(Buffer.from(answered.bodyAsBase64, 'base64'))
          : typeof answered.body === 'string'
            ? answered.body
            : 'jsonBody' in answered
              ? JSON.stringify(answered.jsonBody)
              : null,
        headers,
      );
      const logged = typeof request.loggedDate === 'number' ? request.loggedDate : NaN;
      return interactionFromParts(
        {
          index: i,
          url,
          method,
          requestText,
          status,
          headers,
          responseText: text,
          at,
          ...(Number.isFinite(logged) ? { recordedAt: new Date(logged).toISOString() } : {}),
        },
        file,
        notes,
      );
    });
  return partitionTraffic(read);
}
