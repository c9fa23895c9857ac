/**
 * VCR.py / pytest-recording YAML cassettes → exchanges. Reads both forms:
 * - plain (crewAI): `request.body` is the raw JSON string, `response.body.string` the raw body
 *   (pretty JSON or SSE text);
 * - pydantic-ai: JSON bodies stored as YAML under `parsed_body` (keys alphabetical, quotes
 *   normalised upstream), SSE bodies kept as text in `response.body.string`.
 * Each interaction may use either form; the file is `vcr-yaml-parsed-body` when any does.
 */
import { parse as parseYaml } from 'yaml';
import { InputError } from '../errors.ts';
import type { Exchange, ImportFormat, RecordedResponse } from '../cassette/types.ts';
import { allowlistHeaders, eventsFromSse, looksLikeSse, splitUri } from './common.ts';

/** What a VCR file yields: exchanges in order, the host of the first request, the detected form. */
export interface VcrImport {
  exchanges: Exchange[];
  host: string | null;
  format: Extract<ImportFormat, 'vcr-yaml' | 'vcr-yaml-parsed-body'>;
  /** Non-fatal oddities, for the import's warnings. */
  notes: string[];
}

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Text of a VCR body value: a string, `{string: …}`, or `!!binary` bytes (decoded as UTF-8). */
function bodyText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (isObj(value) && 'string' in value) return bodyText(value.string);
  return null;
}

/** True when the YAML text is a VCR cassette (`interactions:` list at the top). */
export function isVcrDocument(doc: unknown): doc is { interactions: unknown[] } {
  return isObj(doc) && Array.isArray(doc.interactions);
}

/** Parses YAML text; a syntax error becomes an InputError naming the file and line. */
export function parseVcrYaml(text: string, file: string): unknown {
  try {
    return parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    throw new InputError([{ file, path: '', reason: `not valid YAML: ${(error as Error).message}` }]);
  }
}

/**
 * Converts a parsed VCR document to exchanges.
 *
 * @throws InputError (file, `/interactions/<i>/…`, reason) when an interaction has no URI or
 *   status, or a request body that is not a JSON object.
 */
export function exchangesFromVcr(doc: unknown, file: string): VcrImport {
  if (!isVcrDocument(doc))
    throw new InputError([
      { file, path: '/interactions', reason: 'not a VCR cassette: no "interactions" list' },
    ]);
  const exchanges: Exchange[] = [];
  const notes: string[] = [];
  let parsedBodyForm = false;
  let host: string | null = null;
  doc.interactions.forEach((interaction, i) => {
    const at = `/interactions/${i}`;
    if (!isObj(interaction) || !isObj(interaction.request) || !isObj(interaction.response))
      throw new InputError([
        { file, path: at, reason: 'an interaction needs a "request" and a "response" object' },
      ]);
    const { request, response } = interaction;
    if (typeof request.uri !== 'string')
      throw new InputError([{ file, path: `${at}/request/uri`, reason: 'missing request URI' }]);
    let split: { host: string; path: string };
    try {
      split = splitUri(request.uri);
    } catch {
      throw new InputError([{ file, path: `${at}/request/uri`, reason: `not a URL: ${request.uri}` }]);
    }
    host ??= split.host;
    let body: Obj | null = null;
    if ('parsed_body' in request) {
      parsedBodyForm = true;
      if (!isObj(request.parsed_body))
        throw new InputError([{ file, path: `${at}/request/parsed_body`, reason: 'must be a JSON object' }]);
      body = request.parsed_body;
    } else {
      const text = bodyText(request.body);
      if (text !== null && text.trim() !== '') {
        try {
          const value: unknown = JSON.parse(text);
          if (!isObj(value)) throw new Error('not an object');
          body = value;
        } catch (error) {
          throw new InputError([
            {
              file,
              path: `${at}/request/body`,
              reason: `the request body is not a JSON object (${(error as Error).message})`,
            },
          ]);
        }
      }
    }
    if ('parsed_body' in response) parsedBodyForm = true;
    exchanges.push({
      request: {
        method: typeof request.method === 'string' ? request.method.toUpperCase() : 'POST',
        path: split.path,
        body,
      },
      response: convertResponse(response, file, at, notes),
    });
  });
  return { exchanges, host, format: parsedBodyForm ? 'vcr-yaml-parsed-body' : 'vcr-yaml', notes };
}

function convertResponse(response: Obj, file: string, at: string, notes: string[]): RecordedResponse {
  const status = isObj(response.status) ? response.status.code : response.status;
  if (typeof status !== 'number' || !Number.isInteger(status))
    throw new InputError([
      { file, path: `${at}/response/status`, reason: 'missing or non-integer status code' },
    ]);
  const headers = allowlistHeaders(response.headers);
  if ('parsed_body' in response) return { status, headers, body: response.parsed_body };
  const text = bodyText(response.body);
  if (text === null || text === '') return { status, headers };
  if ((headers['content-type'] ?? '').includes('text/event-stream') || looksLikeSse(text))
    return { status, headers, events: eventsFromSse(text) };
  try {
    return { status, headers, body: JSON.parse(text) as unknown };
  } catch {
    notes.push(`${at}/response/body: not JSON; kept as text`);
    return { status, headers, body: text };
  }
}
