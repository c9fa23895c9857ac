/**
 * One detector for every recording format, by content (never by file name): it returns the
 * format and the parsed document, or an error that says what it saw and which formats it
 * knows. Order of the checks:
 * 0. an httprr trace (Go): the first line is `httprr trace v1`;
 * 1. SSE: the first non-empty line is an SSE field (`data:`, `event:`, `id:`, `retry:`) or comment;
 * 2. JSON (the whole text): a harness-bench cassette (no import needed), a HAR (`log.entries`,
 *    Polly.JS included), an Azure SDK test-proxy record (`Entries` with `RequestUri`), nock definitions (array of `{ scope, method }`), one chunk object;
 *    WireMock's request journal (`requests`) and stub mappings (`{ request, response }`,
 *    `mappings`), and VCR's shape written as JSON (Ruby VCR's JSON serializer, Betamax, rVCR),
 *    Hoverfly (`data.pairs`), MockServer (`httpRequest`), Talkback (`meta`, `req`, `res`; also
 *    as JSON5), ExVCR (a list of `{ request: { url }, response }`);
 * 3. a chunk log: several lines, the first a chat-completion chunk object;
 * 4. YAML: VCR.py (`interactions`; go-vcr when its requests have `url` and its responses
 *    `code`; a Betamax tape when it has a `name` and interactions stamped `recorded`), Ruby VCR
 *    (`http_interactions`), a HAR written as YAML (Polly's `recording.har.yaml`), Python
 *    `responses` recordings (`responses: [{ response }]`).
 */
import { InputError } from '../errors.ts';
import { CASSETTE_FORMAT, type ImportFormat } from '../cassette/types.ts';
import { looksLikeSse, isObj, type Obj } from './common.ts';
import { isAzureTestProxyDocument } from './azure-test-proxy.ts';
import { isHarDocument } from './har.ts';
import { isHttprr } from './httprr.ts';
import { isNockDocument } from './nock.ts';
import { isWireMockJournal, isWireMockMappings } from './wiremock.ts';
import {
  isHoverflySimulation,
  isMockServerDocument,
  isResponsesRecording,
  isTalkbackTape,
  parseJson5,
} from './mock-servers.ts';
import { isRubyVcrDocument, isVcrDocument, parseVcrYaml } from './vcr.ts';

/** What the detector found: the format and, when it parsed the text, the document. */
export interface DetectedRecording {
  format: ImportFormat;
  doc?: unknown;
}

/** The formats the detector knows, as one sentence for messages. */
export const KNOWN_FORMATS =
  'VCR.py YAML ("interactions", pydantic-ai\'s "parsed_body" too), Ruby VCR YAML ("http_interactions"), ' +
  'HAR / Polly.JS ("log.entries", JSON or YAML), nock definitions (a JSON array of { scope, method, path }), ' +
  'a chunk log (one chat.completion.chunk JSON object per line), raw SSE ("data:" lines) and ' +
  'Go httprr traces (first line "httprr trace v1"; gzipped files are unzipped first), ' +
  'Azure SDK test-proxy records ("Entries" with "RequestUri"), go-vcr cassettes (Go; "interactions" with "url" and "code"), ' +
  'VCR written as JSON (Ruby VCR\'s JSON serializer, Betamax for Python, rVCR for Rust: "http_interactions"), ' +
  'Betamax tapes (Java; "name" and "interactions" stamped "recorded") and WireMock stub mappings ' +
  '({ "request", "response" } or "mappings") and request journals ("requests"), Hoverfly simulations ("data.pairs"), ' +
  'MockServer expectations ("httpRequest", "httpResponse"), Talkback tapes (JSON5 "meta", "req", "res"), ' +
  'Python responses recordings (YAML "responses" of "response") and ExVCR cassettes (a JSON list of { request: { url }, response })';

function keysOf(value: Obj): string {
  const keys = Object.keys(value);
  if (keys.length === 0) return 'no keys';
  const shown = keys.slice(0, 6).map((key) => JSON.stringify(key));
  return `key${keys.length === 1 ? '' : 's'} ${shown.join(', ')}${keys.length > 6 ? ', …' : ''}`;
}

/** A short description of a parsed value, for "unknown format" messages. */
function describe(value: unknown, kind: 'JSON' | 'YAML'): string {
  if (Array.isArray(value)) {
    const first = value[0];
    return `a ${kind} list of ${value.length} item${value.length === 1 ? '' : 's'}${isObj(first) ? ` (the first has ${keysOf(first)})` : ''}`;
  }
  if (isObj(value)) {
    if (isObj(value.log))
      return `a ${kind} object with "log" (${keysOf(value.log)}) but no "log.entries" list`;
    return `a ${kind} ${kind === 'JSON' ? 'object' : 'mapping'} with ${keysOf(value)}`;
  }
  return `text starting with ${JSON.stringify(String(value).slice(0, 40))}`;
}

function unknown(file: string, saw: string): InputError {
  return new InputError([
    { file, path: '', reason: `unknown recording format: ${saw}. Known formats: ${KNOWN_FORMATS}` },
  ]);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

function isChunkObject(value: unknown): boolean {
  return isObj(value) && (Array.isArray(value.choices) || value.object === 'chat.completion.chunk');
}

/**
 * Detects the format of a recording from its text (see the module comment for the order).
 *
 * @throws InputError naming the file and what was seen: an empty file, an already-imported
 *   harness-bench cassette, YAML or JSON of no known format (its top-level keys), or text
 *   that is neither.
 */
export function detectRecording(text: string, file: string): DetectedRecording {
  const body = text.replace(/^\uFEFF/, '');
  const lines = body.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines.length === 0) throw new InputError([{ file, path: '', reason: 'empty recording' }]);
  if (isHttprr(body)) return { format: 'httprr' };
  if (looksLikeSse(body)) return { format: 'sse' };
  const json = parseJson(body);
  if (json.ok) {
    const value = json.value;
    if (isObj(value) && value.format === CASSETTE_FORMAT)
      throw new InputError([
        {
          file,
          path: '/format',
          reason: `already a harness-bench cassette ("format": "${CASSETTE_FORMAT}"): run or replay it directly, no import needed`,
        },
      ]);
    if (isHarDocument(value)) return { format: 'har', doc: value };
    if (isAzureTestProxyDocument(value)) return { format: 'azure-test-proxy', doc: value };
    if (isNockDocument(value)) return { format: 'nock', doc: value };
    if (isWireMockJournal(value)) return { format: 'wiremock-journal', doc: value };
    if (isHoverflySimulation(value)) return { format: 'hoverfly', doc: value };
    if (isMockServerDocument(value)) return { format: 'mockserver', doc: value };
    if (isTalkbackTape(value)) return { format: 'talkback', doc: value };
    if (isExVcrDocument(value)) return { format: 'exvcr', doc: { interactions: value } };
    if (isWireMockMappings(value)) return { format: 'wiremock', doc: value };
    // Ruby VCR's JSON serializer, Betamax (Python) and rVCR (Rust) write VCR's shape as JSON.
    if (isRubyVcrDocument(value) || isVcrDocument(value)) return { format: 'vcr-json', doc: value };
    if (isChunkObject(value)) return { format: 'chunk-log' };
    throw unknown(file, describe(value, 'JSON'));
  }
  // Talkback writes its tapes as JSON5 (unquoted keys, single quotes).
  if (/^\s*\{/.test(body)) {
    const json5 = parseJson5(body);
    if (isTalkbackTape(json5)) return { format: 'talkback', doc: json5 };
  }
  const firstLine = parseJson(lines[0]!.trim());
  if (firstLine.ok && isChunkObject(firstLine.value)) return { format: 'chunk-log' };
  if (firstLine.ok && isObj(firstLine.value) && lines.length > 1) {
    const type =
      typeof firstLine.value.type === 'string' ? `, type ${JSON.stringify(firstLine.value.type)}` : '';
    throw unknown(
      file,
      `one JSON object per line, but not chat-completion chunks (the first has ${keysOf(firstLine.value)}${type}; no "choices")`,
    );
  }
  let doc: unknown;
  try {
    doc = parseVcrYaml(body, file);
  } catch (error) {
    const why = error instanceof InputError ? (error.problems[0]?.reason.split('\n')[0] ?? '') : '';
    const key = /^(http_interactions|interactions|log):/m.exec(body)?.[1];
    if (key)
      throw new InputError([
        {
          file,
          path: '',
          reason: `a recording by its "${key}:" key, but ${why.replace(/:$/, '') || 'not valid YAML'}`,
        },
      ]);
    // Say why it parses as neither: a file that opens like JSON is read as broken JSON (with
    // the parser's position), anything else as broken YAML.
    const start = JSON.stringify(lines[0]!.slice(0, 40));
    const broken = /^\s*[[{]/.test(body)
      ? `JSON that does not parse (${json.ok ? '' : json.error})`
      : `YAML that does not parse (${why.replace(/:$/, '') || 'not valid YAML'})`;
    throw unknown(file, `text that is neither JSON nor YAML, starting with ${start}: ${broken}`);
  }
  if (isRubyVcrDocument(doc)) return { format: 'ruby-vcr-yaml', doc };
  if (isVcrDocument(doc)) {
    if (isBetamaxTape(doc)) return { format: 'betamax-tape', doc };
    if (isGoVcr(doc)) return { format: 'go-vcr-yaml', doc };
    const parsedBody = doc.interactions.some(
      (i) =>
        isObj(i) &&
        ((isObj(i.request) && 'parsed_body' in i.request) ||
          (isObj(i.response) && 'parsed_body' in i.response)),
    );
    return { format: parsedBody ? 'vcr-yaml-parsed-body' : 'vcr-yaml', doc };
  }
  if (isHarDocument(doc)) return { format: 'har', doc };
  if (isResponsesRecording(doc)) return { format: 'responses-yaml', doc };
  throw unknown(file, describe(doc, 'YAML'));
}

/** ExVCR (Elixir) cassettes: a JSON list of `{ request: { url }, response }`. */
function isExVcrDocument(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((i) => isObj(i) && isObj(i.request) && typeof i.request.url === 'string' && isObj(i.response))
  );
}

/** Betamax (Java) tapes: `!tape` with a `name` and interactions stamped `recorded`. */
function isBetamaxTape(doc: { interactions: unknown[] }): boolean {
  return (
    typeof (doc as Obj).name === 'string' &&
    doc.interactions.length > 0 &&
    doc.interactions.every((i) => isObj(i) && 'recorded' in i)
  );
}

/** go-vcr cassettes (`gopkg.in/dnaeon/go-vcr.v*`): requests with `url`, responses with `code` or `proto`. */
function isGoVcr(doc: { interactions: unknown[] }): boolean {
  return (
    doc.interactions.length > 0 &&
    doc.interactions.every(
      (i) =>
        isObj(i) &&
        isObj(i.request) &&
        typeof i.request.url === 'string' &&
        isObj(i.response) &&
        ('code' in i.response || 'proto' in i.response),
    )
  );
}

/** The format of a recording ({@link detectRecording} without the document). @throws InputError */
export function detectFormat(text: string, file: string): ImportFormat {
  return detectRecording(text, file).format;
}
