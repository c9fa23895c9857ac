/**
 * Cassette format, version 1 (`docs/recording-format.md`): the frozen model side of
 * one session, every chat-completions exchange in order, with provenance; for imports, the
 * recording's other traffic is listed apart (`nonModel`) and never served.
 *
 * A cassette is one JSON file. Cassettes are evidence: tests read them and never rewrite them.
 */
import type { Ledger } from '../../harness/ledger.ts';

/** The value of {@link Cassette.format}. */
export const CASSETTE_FORMAT = 'harness-bench.cassette';

/** The cassette version this build writes; {@link Cassette.version}. */
export const CASSETTE_VERSION = 1;

/**
 * The foreign formats the importers read (`eval/import/`, detection in `eval/import/detect.ts`):
 * - `vcr-yaml`: a plain VCR.py cassette (`interactions`); bodies as raw strings or `!!binary`
 *   bytes (compressed ones decoded by their `Content-Encoding`), or httpx-era `content`;
 * - `vcr-yaml-parsed-body`: pydantic-ai's VCR form, JSON bodies stored as YAML under `parsed_body`;
 * - `ruby-vcr-yaml`: a Ruby VCR cassette (`http_interactions`, `!binary` bodies, placeholder hosts);
 * - `har`: an HTTP Archive (`log.entries`), as Polly.JS records (JSON or YAML);
 * - `chunk-log`: one `chat.completion.chunk` JSON object per line, no `data:` prefix, no `[DONE]`;
 * - `sse`: raw server-sent-events text (`data: {...}` blocks, `data: [DONE]`);
 * - `nock`: a JSON array of nock definitions (`nock.recorder` output, `nock.define()` input);
 * - `passthrough`: not a file format: a foreign harness's live session recorded by the endpoint in
 *   pass-through mode (`eval/serve/passthrough.ts`); another client made the requests, so it
 *   replays as an imported recording. Never detected by `import`.
 */
export type ImportFormat =
  | 'vcr-yaml'
  | 'vcr-yaml-parsed-body'
  | 'ruby-vcr-yaml'
  | 'har'
  | 'chunk-log'
  | 'sse'
  | 'nock'
  | 'httprr'
  | 'azure-test-proxy'
  | 'go-vcr-yaml'
  | 'vcr-json'
  | 'betamax-tape'
  | 'wiremock'
  | 'wiremock-journal'
  | 'hoverfly'
  | 'mockserver'
  | 'talkback'
  | 'responses-yaml'
  | 'exvcr'
  | 'passthrough';

/** Every {@link ImportFormat}, in the order the docs list them. */
export const IMPORT_FORMATS: readonly ImportFormat[] = [
  'vcr-yaml',
  'vcr-yaml-parsed-body',
  'ruby-vcr-yaml',
  'har',
  'chunk-log',
  'sse',
  'nock',
  'httprr',
  'azure-test-proxy',
  'go-vcr-yaml',
  'vcr-json',
  'betamax-tape',
  'wiremock',
  'wiremock-journal',
  'hoverfly',
  'mockserver',
  'talkback',
  'responses-yaml',
  'exvcr',
  'passthrough',
];

/** Where an imported recording came from (repository, path inside it, commit, licence). */
export interface CassetteSource {
  /** `owner/name` on GitHub, e.g. `pydantic/pydantic-ai`. */
  repository: string;
  /** Path of the file inside the repository. */
  path: string;
  /** The commit (full or abbreviated hash) of the snapshot the file was read from. */
  commit: string;
  /** SPDX licence id of the source file, e.g. `MIT`, `Apache-2.0`. */
  license: string;
  /** The commit that last changed the file upstream, when known. */
  lastChange?: string;
}

/** Cassette metadata. Fields that a response-only recording cannot know are `null`. */
export interface CassetteMeta {
  /** Stable id, the file name without its extension for imports. */
  id: string;
  /** One line for reports. */
  title: string;
  /** ISO 8601 time (or date) of the recording; `unknown` when nothing in the recording dates it. */
  recordedAt: string;
  /**
   * Provider base URL host of the first model exchange, e.g. `api.openai.com`; a placeholder the
   * recording kept instead (`<OLLAMA_API_BASE>`) as written; `null` when the recording has no
   * request. Non-model traffic never sets it (nor `modelRequested`, `task`, `toolSchemasHash`).
   */
  host: string | null;
  /** `model` of the first model request (Azure: the deployment name); `null` when there is no request. */
  modelRequested: string | null;
  /** `model` of the first response that names one; `null` when none does. */
  modelServed: string | null;
  /** Text of the first user message of the first request; `null` when there is no request. */
  task: string | null;
  /** The harness configuration used when recording, or its hash. Absent for imports. */
  config?: Record<string, unknown> | string;
  /** sha256 (hex) of the canonical JSON of the first request's `tools` (`[]` when absent); `null` without request. */
  toolSchemasHash: string | null;
  /** The workspace fixture: relative path → file content. */
  workspace?: { files: Record<string, string> };
  /** Provenance of an imported recording. */
  source?: CassetteSource;
  /**
   * Present when the cassette was imported from another tool's recording: the format it was read
   * as, the source file's base name, for a HAR its `log.creator` (e.g. `Polly.JS 6.0.6`), and what the importer rewrote (legacy function calling, a followed
   * `n > 1` choice: `eval/import/legacy-shapes.ts`), one sentence each.
   */
  imported?: { format: ImportFormat; file: string; creator?: string; rewritten?: string[] };
  /** True when the recording holds responses only (chunk logs, raw SSE): nothing to compare requests with. */
  responseOnly: boolean;
  /** Free text: what the recording shows and why it is interesting. */
  description?: string;
}

/** What the harness drew from its injected deps while recording, so a replay reproduces the requests. */
export interface CassetteDeps {
  /** Every value `now()` returned, in ms since the epoch, in order. */
  clock?: number[];
  /** Seed of the id generator. */
  idSeed?: string;
  /** Seed of the random source. */
  randomSeed?: number;
}

/** One recorded request. `body` is the JSON body; `null`/absent for response-only recordings. */
export interface RecordedRequest {
  /** HTTP method, upper case. */
  method: string;
  /** Path and query of the URL, e.g. `/v1/chat/completions` or an Azure deployment path with `?api-version=`. */
  path: string;
  body?: Record<string, unknown> | null;
}

/** One server-sent event: its `data` payload as text (`[DONE]` included) and the delay before it in ms. */
export interface RecordedEvent {
  data: string;
  delayMs?: number;
}

/**
 * One recorded response: the status, an allowlisted set of headers (lower-case names, one
 * string value each) and either a JSON `body` (a string when the body was not JSON) or, for a
 * stream, the `events` in order.
 */
export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  events?: RecordedEvent[];
}

/**
 * One interaction of an imported recording that is not a model exchange (telemetry, a search
 * API, a prompt hub, embeddings, another provider's native API, a health check): kept for the
 * record and the report, never served to the harness. See `eval/import/classify.ts`.
 */
export interface NonModelTraffic {
  /** 0-based position of the interaction in the source recording (model exchanges counted too). */
  index: number;
  /** HTTP method, upper case. */
  method: string;
  /** The URL as recorded, with secret-looking query values (`key`, `token`, …) replaced by `REDACTED`. */
  url: string;
  /** HTTP status of the recorded response (`0` when the recording has none, e.g. an aborted HAR entry). */
  status: number;
  /** What the interaction is, e.g. `telemetry (OpenTelemetry traces)`, `LangSmith API`. */
  note: string;
}

/** One model call: the request and what came back (HTTP errors are exchanges too). */
export interface Exchange {
  request: RecordedRequest;
  response: RecordedResponse;
}

/** A cassette, version 1. */
export interface Cassette {
  format: typeof CASSETTE_FORMAT;
  version: typeof CASSETTE_VERSION;
  meta: CassetteMeta;
  deps: CassetteDeps;
  /** Model exchanges only (chat completions), in recorded order; at least one. */
  exchanges: Exchange[];
  /** Imports: the recording's other traffic, in recorded order. Absent when there was none. */
  nonModel?: NonModelTraffic[];
  /** The decision ledger of the recorded run; absent for imported recordings. */
  ledger?: Ledger;
}
