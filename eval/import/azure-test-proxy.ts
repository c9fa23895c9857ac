/**
 * Recordings of the Azure SDK test proxy (https://github.com/Azure/azure-sdk-tools, `tools/test-proxy`),
 * the recorder shared by the Azure SDKs for .NET, Java, JavaScript, Python, Go and C++ (session
 * records kept in `Azure/azure-sdk-assets`) → exchanges and non-model traffic. A record is
 * `{ Entries: [{ RequestUri, RequestMethod, RequestHeaders, RequestBody, StatusCode,
 * ResponseHeaders, ResponseBody }], Variables }`. A JSON body is stored parsed (an object), a
 * text body as a string, and a streamed body as an array of the chunks as they arrived (SSE
 * text); the proxy's sanitisers have already replaced hosts, keys and ids with `Sanitized`.
 * The response `Date` header dates the recording. Entries are taken in file order.
 */
import { InputError } from '../errors.ts';
import { headerLists, responseFromText } from './body.ts';
import {
  isChatCompletionsPath,
  partitionTraffic,
  type PartitionedTraffic,
  type ReadInteraction,
} from './classify.ts';
import { allowlistHeaders, parseJsonObject, splitUri, isObj, type Obj } from './common.ts';

/** True when the parsed JSON is a test-proxy record: `Entries`, each with `RequestUri` and `RequestMethod`. */
export function isAzureTestProxyDocument(doc: unknown): doc is { Entries: unknown[] } {
  return (
    isObj(doc) &&
    Array.isArray(doc.Entries) &&
    doc.Entries.length > 0 &&
    doc.Entries.every(
      (e) => isObj(e) && typeof e.RequestUri === 'string' && typeof e.RequestMethod === 'string',
    )
  );
}

function requestBody(value: unknown): Obj | null | Error {
  return isObj(value) ? value : parseJsonObject(typeof value === 'string' ? value : null);
}

/**
 * Converts a test-proxy record to model exchanges and non-model traffic.
 *
 * @throws InputError (file, `/Entries/<i>/…`, reason) when the document is not a record, an
 *   entry's URI is not a URL, or a chat-completions request body is not a JSON object.
 */
export function exchangesFromAzureTestProxy(
  doc: unknown,
  file: string,
): PartitionedTraffic & { notes: string[] } {
  if (!isAzureTestProxyDocument(doc))
    throw new InputError([
      {
        file,
        path: '/Entries',
        reason: 'not an Azure test-proxy record: no "Entries" with RequestUri and RequestMethod',
      },
    ]);
  const notes: string[] = [];
  const read = doc.Entries.map((raw, i): ReadInteraction => {
    const entry = raw as Obj;
    const at = `/Entries/${i}`;
    const url = entry.RequestUri as string;
    let split: { host: string; path: string };
    try {
      split = splitUri(url);
    } catch {
      throw new InputError([{ file, path: `${at}/RequestUri`, reason: `not a URL: ${url}` }]);
    }
    const method = (entry.RequestMethod as string).toUpperCase();
    const parsed = requestBody(entry.RequestBody);
    if (parsed instanceof Error && method === 'POST' && isChatCompletionsPath(split.path))
      throw new InputError([
        {
          file,
          path: `${at}/RequestBody`,
          reason: `the request body is not a JSON object (${parsed.message})`,
        },
      ]);
    const body = parsed instanceof Error ? null : parsed;
    const status =
      typeof entry.StatusCode === 'number' && Number.isInteger(entry.StatusCode) ? entry.StatusCode : 0;
    const headers = headerLists(entry.ResponseHeaders);
    const date = Date.parse(headers.date?.[0] ?? '');
    const response = entry.ResponseBody;
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
        response: isObj(response)
          ? { status, headers: allowlistHeaders(headers), body: response }
          : responseFromText(
              status,
              headers,
              Array.isArray(response)
                ? response.map(String).join('')
                : typeof response === 'string'
                  ? response
                  : null,
              `${at}/ResponseBody`,
              notes,
            ),
      }),
    };
  });
  return { ...partitionTraffic(read), notes };
}
