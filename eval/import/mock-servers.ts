/**
 * Recordings of the HTTP mock servers and recorders of other ecosystems, each → exchanges and
 * non-model traffic (the same family as WireMock and the VCRs):
 * - **Hoverfly** simulations (Go; `hoverctl export`, https://docs.hoverfly.io/en/latest/pages/reference/simulationschema.html):
 *   `{ data: { pairs: [{ request, response }] }, meta: { schemaVersion } }`; a request field is a
 *   list of matchers (`[{ matcher, value }]`, v5) or `{ exactMatch }` / a string (v1–v3);
 *   `response.encodedBody` marks a base64 body.
 * - **MockServer** expectations and recorded request/response pairs (Java;
 *   `PUT /mockserver/retrieve?type=RECORDED_EXPECTATIONS|REQUEST_RESPONSES`,
 *   https://www.mock-server.com/mock_server/mockserver_clients.html): `{ httpRequest,
 *   httpResponse }` or a list of them; a body is text, `{ type: JSON, json }`, `{ type: STRING,
 *   string }`, `{ type: BINARY, base64Bytes }` or a JSON value; headers `{ name: [values] }` or
 *   `[{ name, values }]`.
 * - **Talkback** tapes (Node, JSON5, https://github.com/ijpiantanida/talkback): `{ meta: {
 *   createdAt, host, reqHumanReadable, resHumanReadable, resUncompressed }, req: { url, method,
 *   headers, body }, res: { status, headers, body } }`; a body not human-readable is base64, a
 *   human-readable JSON body is stored parsed.
 * - **responses** (Python, `responses._recorder`, https://github.com/getsentry/responses#record-responses-to-files):
 *   YAML `responses: [{ response: { method, url, status, body, headers, content_type } }]`; it
 *   records no request body, so its chat completions are response-only.
 * A file with no chat completion is refused by the caller with what it holds instead.
 */
import JSON5 from 'json5';
import { InputError } from '../errors.ts';
import { bodyText, headerLists, type HeaderLists, type RawBody } from './body.ts';
import { partitionTraffic, type PartitionedTraffic } from './classify.ts';
import { isObj, type Obj } from './common.ts';
import { interactionFromParts } from './parts.ts';

type Traffic = PartitionedTraffic & { notes: string[] };

// ---------------------------------------------------------------- Hoverfly

/** True for a Hoverfly simulation: `data.pairs`, each with a request and a response. */
export function isHoverflySimulation(doc: unknown): boolean {
  return (
    isObj(doc) &&
    isObj(doc.data) &&
    Array.isArray(doc.data.pairs) &&
    doc.data.pairs.length > 0 &&
    doc.data.pairs.every((p) => isObj(p) && isObj(p.request) && isObj(p.response))
  );
}

/** A Hoverfly request field's value: a string, `{ exactMatch | value }`, or the first matcher of a list. */
function matcherValue(field: unknown): string | undefined {
  if (typeof field === 'string') return field;
  if (Array.isArray(field)) return matcherValue(field[0]);
  if (isObj(field)) {
    const value = field.value ?? field.exactMatch ?? field.globMatch;
    return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

/** Converts a Hoverfly simulation ({@link isHoverflySimulation}). @throws InputError for another document. */
export function exchangesFromHoverfly(doc: unknown, file: string): Traffic {
  if (!isHoverflySimulation(doc))
    throw new InputError([
      {
        file,
        path: '/data/pairs',
        reason: 'not a Hoverfly simulation: no data.pairs of { request, response }',
      },
    ]);
  const notes: string[] = [];
  const pairs = ((doc as Obj).data as Obj).pairs as Obj[];
  const read = pairs.map((pair, i) => {
    const request = pair.request as Obj;
    const response = pair.response as Obj;
    const scheme = matcherValue(request.scheme) ?? 'https';
    const host = matcherValue(request.destination) ?? 'unknown-host';
    const query = typeof request.query === 'string' && request.query !== '' ? `?${request.query}` : '';
    const url = `${scheme}://${host}${matcherValue(request.path) ?? '/'}${query}`;
    const method = (matcherValue(request.method) ?? 'POST').toUpperCase();
    const headers = headerLists(response.headers);
    const raw: RawBody =
      typeof response.body !== 'string'
        ? null
        : response.encodedBody === true
          ? new Uint8Array(Buffer.from(response.body, 'base64'))
          : response.body;
    const status = typeof response.status === 'number' ? response.status : 0;
    return interactionFromParts(
      {
        index: i,
        url,
        method,
        requestText: matcherValue(request.body) ?? null,
        status,
        headers,
        responseText: bodyText(raw, headers),
        at: `/data/pairs/${i}`,
      },
      file,
      notes,
    );
  });
  return { ...partitionTraffic(read), notes };
}

// ---------------------------------------------------------------- MockServer

const isMockServerItem = (v: unknown): v is Obj => isObj(v) && isObj(v.httpRequest);

/** True for MockServer expectations or recorded pairs: `{ httpRequest, httpResponse }`, or a list of them. */
export function isMockServerDocument(doc: unknown): boolean {
  if (isMockServerItem(doc)) return true;
  return Array.isArray(doc) && doc.length > 0 && doc.every(isMockServerItem);
}

function mockServerHeaders(raw: unknown): HeaderLists {
  if (Array.isArray(raw))
    return headerLists(
      raw.flatMap((h) =>
        isObj(h) && Array.isArray(h.values) ? h.values.map((value) => ({ name: h.name, value })) : [h],
      ),
    );
  return headerLists(raw);
}

function mockServerBody(body: unknown): RawBody {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return body;
  if (isObj(body)) {
    if (typeof body.base64Bytes === 'string') return new Uint8Array(Buffer.from(body.base64Bytes, 'base64'));
    if (body.type === 'JSON') return typeof body.json === 'string' ? body.json : JSON.stringify(body.json);
    if (typeof body.string === 'string') return body.string;
    if (typeof body.type === 'string' && 'value' in body) return String(body.value);
  }
  return JSON.stringify(body);
}

/** Converts MockServer expectations ({@link isMockServerDocument}). @throws InputError for another document. */
export function exchangesFromMockServer(doc: unknown, file: string): Traffic {
  if (!isMockServerDocument(doc))
    throw new InputError([
      { file, path: '', reason: 'not MockServer expectations: no { httpRequest, httpResponse }' },
    ]);
  const notes: string[] = [];
  const single = !Array.isArray(doc);
  const items = single ? [doc as Obj] : (doc as Obj[]);
  const read = items.map((item, i) => {
    const at = single ? '' : `/${i}`;
    const request = item.httpRequest as Obj;
    const response = isObj(item.httpResponse) ? item.httpResponse : {};
    const requestHeaders = mockServerHeaders(request.headers);
    const socket = isObj(request.socketAddress) ? request.socketAddress : {};
    const host = requestHeaders.host?.[0] ?? (typeof socket.host === 'string' ? socket.host : 'unknown-host');
    const scheme = typeof socket.scheme === 'string' ? socket.scheme.toLowerCase() : 'https';
    const url = `${scheme}://${host}${typeof request.path === 'string' ? request.path : '/'}`;
    const method = typeof request.method === 'string' ? request.method.toUpperCase() : 'POST';
    const headers = mockServerHeaders(response.headers);
    const status = typeof response.statusCode === 'number' ? response.statusCode : 200;
    const when = typeof item.timestamp === 'string' ? Date.parse(item.timestamp) : NaN;
    return interactionFromParts(
      {
        index: i,
        url,
        method,
        requestText: bodyText(mockServerBody(request.body), requestHeaders),
        status,
        headers,
        responseText: bodyText(mockServerBody(response.body), headers),
        at,
        ...(Number.isFinite(when) ? { recordedAt: new Date(when).toISOString() } : {}),
      },
      file,
      notes,
    );
  });
  return { ...partitionTraffic(read), notes };
}

// ---------------------------------------------------------------- Talkback

/** Parses Talkback's JSON5; `undefined` when the text is not JSON5. */
export function parseJson5(text: string): unknown {
  try {
    return JSON5.parse(text);
  } catch {
    return undefined;
  }
}

/** True for a Talkback tape: `meta`, `req` with `url`, and `res`. */
export function isTalkbackTape(doc: unknown): boolean {
  return isObj(doc) && isObj(doc.meta) && isObj(doc.req) && typeof doc.req.url === 'string' && isObj(doc.res);
}

function talkbackBody(body: unknown, humanReadable: boolean): RawBody {
  if (body === undefined || body === null) return null;
  if (typeof body !== 'string') return JSON.stringify(body);
  return humanReadable ? body : new Uint8Array(Buffer.from(body, 'base64'));
}

/** Converts a Talkback tape ({@link isTalkbackTape}). @throws InputError for another document. */
export function exchangesFromTalkback(doc: unknown, file: string): Traffic {
  if (!isTalkbackTape(doc))
    throw new InputError([{ file, path: '', reason: 'not a Talkback tape: no meta, req and res' }]);
  const notes: string[] = [];
  const { meta, req, res } = doc as { meta: Obj; req: Obj; res: Obj };
  const host = typeof meta.host === 'string' ? meta.host.replace(/\/$/, '') : 'https://unknown-host';
  const url = /^[a-z]+:\/\//i.test(req.url as string) ? (req.url as string) : `${host}${req.url as string}`;
  const method = typeof req.method === 'string' ? req.method.toUpperCase() : 'POST';
  const headers = headerLists(res.headers);
  // `resUncompressed`: talkback stored the body already decompressed under its original header.
  if (meta.resUncompressed === true) delete headers['content-encoding'];
  const status = typeof res.status === 'number' ? res.status : 0;
  const when = typeof meta.createdAt === 'string' ? Date.parse(meta.createdAt) : NaN;
  const read = [
    interactionFromParts(
      {
        index: 0,
        url,
        method,
        requestText: bodyText(
          talkbackBody(req.body, meta.reqHumanReadable === true),
          headerLists(req.headers),
        ),
        status,
        headers,
        responseText: bodyText(talkbackBody(res.body, meta.resHumanReadable === true), headers),
        at: '',
        ...(Number.isFinite(when) ? { recordedAt: new Date(when).toISOString() } : {}),
      },
      file,
      notes,
    ),
  ];
  return { ...partitionTraffic(read), notes };
}

// ---------------------------------------------------------------- responses (Python)

/** True for a `responses` recording: `responses`, each `{ response: { url, method } }`. */
export function isResponsesRecording(doc: unknown): boolean {
  return (
    isObj(doc) &&
    Array.isArray(doc.responses) &&
    doc.responses.length > 0 &&
    doc.responses.every((r) => isObj(r) && isObj(r.response) && typeof r.response.url === 'string')
  );
}

/** Converts a `responses` recording ({@link isResponsesRecording}): response-only exchanges. @throws InputError */
export function exchangesFromResponses(doc: unknown, file: string): Traffic {
  if (!isResponsesRecording(doc))
    throw new InputError([
      { file, path: '/responses', reason: 'not a responses recording: no responses[].response with url' },
    ]);
  const notes: string[] = [];
  const read = ((doc as Obj).responses as Obj[]).map((item, i) => {
    const r = item.response as Obj;
    const headers = headerLists(r.headers);
    if (typeof r.content_type === 'string' && !headers['content-type'])
      headers['content-type'] = [r.content_type];
    return interactionFromParts(
      {
        index: i,
        url: r.url as string,
        method: typeof r.method === 'string' ? r.method.toUpperCase() : 'GET',
        requestText: null,
        status: typeof r.status === 'number' ? r.status : 200,
        headers,
        responseText: typeof r.body === 'string' ? r.body : null,
        at: `/responses/${i}`,
      },
      file,
      notes,
    );
  });
  return { ...partitionTraffic(read), notes };
}
