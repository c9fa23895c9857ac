/**
 * VCR cassettes (YAML) → exchanges and non-model traffic. Reads:
 * - VCR.py / pytest-recording (`interactions`): request `body` as a raw string or `!!binary`
 *   bytes, response `body.string` (text or `!!binary` bytes, compressed ones decoded by their
 *   `Content-Encoding`, see `./body.ts`), or the httpx-era `status_code` + `content` form;
 * - pydantic-ai's form of it: JSON bodies stored as YAML under `parsed_body` (keys alphabetical);
 * - Ruby VCR (`http_interactions`): `body: { encoding, string }` with `!binary` base64 bytes,
 *   lower-case methods, `recorded_at`, placeholder hosts such as `<OLLAMA_API_BASE>`.
 * go-vcr's spelling (`url`, `code`, `status: 200 OK`) and bodies stored as already-parsed
 * mappings are read too. Each interaction may use any of these; the file is
 * `vcr-yaml-parsed-body` when any uses `parsed_body`.
 */
import { parse as parseYaml, type ScalarTag } from 'yaml';
import { InputError } from '../errors.ts';
import type { ImportFormat, RecordedResponse } from '../cassette/types.ts';
import { allowlistHeaders, isObj, type Obj } from './common.ts';
import { bodyText, headerLists, responseFromText, type HeaderLists, type RawBody } from './body.ts';
import {
  isChatCompletionsPath,
  partitionTraffic,
  type PartitionedTraffic,
  type ReadInteraction,
} from './classify.ts';
import { splitUri } from './common.ts';

/** What a VCR file yields: the partitioned traffic, the detected form and non-fatal notes. */
export interface VcrImport extends PartitionedTraffic {
  format: Extract<ImportFormat, 'vcr-yaml' | 'vcr-yaml-parsed-body' | 'ruby-vcr-yaml'>;
  /** Non-fatal oddities, for the import's warnings. */
  notes: string[];
}

/** Ruby's Psych writes binary strings as `!binary` (base64); YAML 1.1 spells it `!!binary`. */
const RUBY_BINARY: ScalarTag = {
  tag: '!binary',
  identify: () => false,
  resolve: (text: string) => new Uint8Array(Buffer.from(text.replace(/\s+/g, ''), 'base64')),
};

/** True for a VCR.py cassette: an `interactions` list at the top. */
export function isVcrDocument(doc: unknown): doc is { interactions: unknown[] } {
  return isObj(doc) && Array.isArray(doc.interactions);
}

/** True for a Ruby VCR cassette: an `http_interactions` list at the top. */
export function isRubyVcrDocument(doc: unknown): doc is { http_interactions: unknown[] } {
  return isObj(doc) && Array.isArray(doc.http_interactions);
}

/**
 * Parses YAML text as recordings need it: `!!binary` and Ruby's `!binary` become bytes, other
 * unknown tags stay plain values (no warning printed).
 *
 * @throws InputError naming the file and the YAML error (with its line) when the text is not YAML.
 */
export function parseVcrYaml(text: string, file: string): unknown {
  try {
    return parseYaml(text, { maxAliasCount: 100, customTags: [RUBY_BINARY], logLevel: 'error' });
  } catch (error) {
    throw new InputError([{ file, path: '', reason: `not valid YAML: ${(error as Error).message}` }]);
  }
}

/** The raw body of a VCR body value: a string, bytes, or `{ string }` (Ruby adds `encoding`). */
function rawBody(value: unknown): RawBody {
  if (typeof value === 'string' || value instanceof Uint8Array) return value;
  if (isObj(value) && 'string' in value && value.string !== null) return rawBody(value.string);
  // Betamax (Python) keeps a body that is not text as `base64_string`.
  if (isObj(value) && typeof value.base64_string === 'string')
    return new Uint8Array(Buffer.from(value.base64_string, 'base64'));
  return null;
}

/**
 * Converts a parsed VCR document (either dialect) to model exchanges and non-model traffic.
 *
 * @throws InputError (file, `/interactions/<i>/…` or `/http_interactions/<i>/…`, reason) when an
 *   interaction has no request/response, URI or status, or a chat-completions request body that
 *   is not a JSON object.
 */
export function exchangesFromVcr(doc: unknown, file: string): VcrImport {
  const ruby = isRubyVcrDocument(doc);
  const list = ruby ? doc.http_interactions : isVcrDocument(doc) ? doc.interactions : undefined;
  if (!list)
    throw new InputError([
      { file, path: '', reason: 'not a VCR cassette: no "interactions" or "http_interactions" list' },
    ]);
  const key = ruby ? 'http_interactions' : 'interactions';
  const notes: string[] = [];
  let parsedBodyForm = false;
  const read = list.map((interaction, i): ReadInteraction => {
    const at = `/${key}/${i}`;
    if (!isObj(interaction) || !isObj(interaction.request) || !isObj(interaction.response))
      throw new InputError([
        { file, path: at, reason: 'an interaction needs a "request" and a "response" object' },
      ]);
    const { request, response } = interaction;
    if ('parsed_body' in request || 'parsed_body' in response) parsedBodyForm = true;
    // go-vcr writes `url` (and `code`); the VCRs write `uri`.
    const uri = typeof request.uri === 'string' ? request.uri : request.url;
    if (typeof uri !== 'string')
      throw new InputError([{ file, path: `${at}/request/uri`, reason: 'missing request URI' }]);
    let split: { host: string; path: string };
    try {
      split = splitUri(uri);
    } catch {
      throw new InputError([{ file, path: `${at}/request/uri`, reason: `not a URL: ${uri}` }]);
    }
    const method = typeof request.method === 'string' ? request.method.toUpperCase() : 'POST';
    const body = requestBody(request, method, split.path, file, at);
    const status = statusOf(response, file, at);
    // Ruby VCR, Betamax (Python) and rVCR write `recorded_at`; Betamax (Java) tapes `recorded`.
    const when = interaction.recorded_at ?? interaction.recorded;
    const recorded =
      typeof when === 'string' ? Date.parse(when) : when instanceof Date ? when.getTime() : NaN;
    return {
      index: i,
      method,
      url: uri,
      ...split,
      body,
      status,
      ...(Number.isFinite(recorded) ? { recordedAt: new Date(recorded).toISOString() } : {}),
      exchange: () => ({
        request: { method, path: split.path, body },
        response: convertResponse(response, status, at, notes),
      }),
    };
  });
  const traffic = partitionTraffic(read);
  const format = ruby ? 'ruby-vcr-yaml' : parsedBodyForm ? 'vcr-yaml-parsed-body' : 'vcr-yaml';
  return { ...traffic, format, notes };
}

function requestBody(request: Obj, method: string, path: string, file: string, at: string): Obj | null {
  if ('parsed_body' in request) {
    if (!isObj(request.parsed_body))
      throw new InputError([{ file, path: `${at}/request/parsed_body`, reason: 'must be a JSON object' }]);
    return request.parsed_body;
  }
  // A body some serializers store already parsed (a mapping without `string`).
  if (isObj(request.body) && !('string' in request.body) && !('encoding' in request.body))
    return request.body;
  const text = bodyText(rawBody(request.body), headerLists(request.headers));
  if (text === null || text.trim() === '') return null;
  try {
    const value: unknown = JSON.parse(text);
    if (!isObj(value)) throw new Error('not an object');
    return value;
  } catch (error) {
    // Non-model traffic may carry any body (protobuf telemetry, forms); a chat completion may not.
    if (method === 'POST' && isChatCompletionsPath(path))
      throw new InputError([
        {
          file,
          path: `${at}/request/body`,
          reason: `the request body is not a JSON object (${(error as Error).message})`,
        },
      ]);
    return null;
  }
}

function statusOf(response: Obj, file: string, at: string): number {
  let status = isObj(response.status)
    ? response.status.code
    : (response.status_code ?? response.code ?? response.status);
  // go-vcr's `status: 200 OK`.
  if (typeof status === 'string' && /^\d{3}\b/.test(status)) status = Number(status.slice(0, 3));
  if (typeof status !== 'number' || !Number.isInteger(status))
    throw new InputError([
      { file, path: `${at}/response/status`, reason: 'missing or non-integer status code' },
    ]);
  return status;
}

function convertResponse(response: Obj, status: number, at: string, notes: string[]): RecordedResponse {
  const headers: HeaderLists = headerLists(response.headers);
  if ('parsed_body' in response)
    return { status, headers: allowlistHeaders(headers), body: response.parsed_body };
  if (isObj(response.body) && !('string' in response.body) && !('encoding' in response.body))
    return { status, headers: allowlistHeaders(headers), body: response.body };
  const raw = 'body' in response ? rawBody(response.body) : rawBody(response.content);
  return responseFromText(status, headers, bodyText(raw, headers), `${at}/response/body`, notes);
}
