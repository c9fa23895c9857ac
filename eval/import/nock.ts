/**
 * nock definition files → exchanges. The format is what `nock.recorder.rec({ output_objects:
 * true })` prints and `nock.define()` reads (https://github.com/nock/nock#recording): a JSON
 * array of `{ scope, method, path, body?, status, response, headers? | rawHeaders?,
 * responseIsBinary? }`. A response is a JSON value, or a string holding JSON, SSE text or plain
 * text (hex-encoded when `responseIsBinary`).
 */
import { InputError } from '../errors.ts';
import type { RecordedResponse } from '../cassette/types.ts';
import { headerLists } from './body.ts';
import { partitionTraffic, type PartitionedTraffic, type ReadInteraction } from './classify.ts';
import { allowlistHeaders, eventsFromSse, looksLikeSse } from './common.ts';

/** One nock definition, as far as the importer reads it. */
export interface NockDefinition {
  scope: string;
  method: string;
  path: string;
  body?: unknown;
  status?: number;
  response?: unknown;
  headers?: Record<string, string | string[]>;
  rawHeaders?: string[] | Record<string, string | string[]>;
  responseIsBinary?: boolean;
}

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** True for a non-empty array whose items all have a string `scope` and `method`. */
export function isNockDocument(value: unknown): value is NockDefinition[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((d) => isObj(d) && typeof d.scope === 'string' && typeof d.method === 'string')
  );
}

function headersOf(definition: NockDefinition): Record<string, string> {
  return allowlistHeaders(headerLists(definition.rawHeaders ?? definition.headers ?? {}));
}

function responseOf(definition: NockDefinition, headers: Record<string, string>): RecordedResponse {
  const status = definition.status ?? 200;
  let value = definition.response;
  if (definition.responseIsBinary && typeof value === 'string')
    value = Buffer.from(value, 'hex').toString('utf8');
  if (typeof value === 'string') {
    if ((headers['content-type'] ?? '').includes('text/event-stream') || looksLikeSse(value))
      return { status, headers, events: eventsFromSse(value) };
    try {
      return { status, headers, body: JSON.parse(value) };
    } catch {
      return { status, headers, body: value };
    }
  }
  return { status, headers, body: value ?? '' };
}

function requestBody(body: unknown): Record<string, unknown> | null {
  if (isObj(body)) return body;
  if (typeof body !== 'string') return null;
  try {
    const value: unknown = JSON.parse(body);
    return isObj(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * nock definitions → model exchanges in file order, non-model traffic apart
 * (`./classify.ts`), and the host of the first model exchange.
 * @throws InputError (file, `/<index>/<field>`, reason) for a definition without a path or
 *   with a scope that is not a URL.
 */
export function exchangesFromNock(definitions: readonly NockDefinition[], file: string): PartitionedTraffic {
  const read = definitions.map((definition, i): ReadInteraction => {
    let url: URL;
    try {
      url = new URL(definition.scope);
    } catch {
      throw new InputError([
        { file, path: `/${i}/scope`, reason: `not a URL: ${JSON.stringify(definition.scope)}` },
      ]);
    }
    if (typeof definition.path !== 'string' || definition.path === '')
      throw new InputError([{ file, path: `/${i}/path`, reason: 'is required (a string path)' }]);
    const method = definition.method.toUpperCase();
    const body = requestBody(definition.body);
    return {
      index: i,
      method,
      url: `${definition.scope.replace(/\/$/, '')}${definition.path}`,
      host: url.hostname,
      path: definition.path,
      body,
      status: definition.status ?? 200,
      exchange: () => ({
        request: { method, path: definition.path, body },
        response: responseOf(definition, headersOf(definition)),
      }),
    };
  });
  return partitionTraffic(read);
}
