/**
 * `importRecording`: a foreign recording (VCR.py or Ruby VCR YAML, go-vcr, VCR as JSON (Betamax,
 * rVCR), Betamax tapes, HAR / Polly.JS, nock definitions, chunk log, raw SSE, Go httprr traces,
 * Azure SDK test-proxy records, WireMock stub mappings and journals, Hoverfly, MockServer,
 * Talkback, Python responses, ExVCR) → a cassette, version 1. The format is detected from the
 * content (`./detect.ts`); only chat completions become exchanges, the rest is kept as
 * `nonModel` traffic (`./classify.ts`), and a recording with no model exchange is refused.
 * Provenance comes from options. The result is validated against the cassette schema and
 * scanned for secrets (findings are warnings: public fixtures keep some placeholders and
 * addresses on purpose).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { InputError } from '../errors.ts';
import { validateCassette } from '../cassette/load.ts';
import { scanForSecrets } from '../cassette/secret-scan.ts';
import {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  type Cassette,
  type Exchange,
  type ImportFormat,
  type NonModelTraffic,
} from '../cassette/types.ts';
import { noModelTrafficReason } from './classify.ts';
import { deriveMeta, type ImportOptions } from './common.ts';
import { detectRecording } from './detect.ts';
import { exchangesFromAzureTestProxy } from './azure-test-proxy.ts';
import { exchangesFromHar } from './har.ts';
import { exchangesFromHttprr } from './httprr.ts';
import { rewriteLegacyShapes } from './legacy-shapes.ts';
import { exchangesFromNock, isNockDocument } from './nock.ts';
import { exchangeFromChunkLog, exchangeFromSse } from './stream-logs.ts';
import { exchangesFromVcr, parseVcrYaml } from './vcr.ts';
import { exchangesFromWireMock } from './wiremock.ts';
import {
  exchangesFromHoverfly,
  exchangesFromMockServer,
  exchangesFromResponses,
  exchangesFromTalkback,
  parseJson5,
} from './mock-servers.ts';

export type { ImportOptions } from './common.ts';
export { allowlistHeaders } from './common.ts';
export { detectFormat } from './detect.ts';

/** An import's cassette, the format it was read as, and its warnings (already passed to `onWarning`). */
export interface ImportResult {
  cassette: Cassette;
  format: ImportFormat;
  warnings: string[];
}

/** What one format's reader gives. */
interface Read {
  exchanges: Exchange[];
  nonModel: NonModelTraffic[];
  host: string | null;
  recordedAt?: string;
  creator?: string;
  notes: string[];
}

function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function readFormat(
  format: ImportFormat,
  text: string,
  doc: unknown,
  file: string,
  bytes: Uint8Array | undefined,
): Read {
  switch (format) {
    case 'httprr':
      return exchangesFromHttprr(bytes ?? Buffer.from(text, 'utf8'), file);
    case 'azure-test-proxy':
      return exchangesFromAzureTestProxy(doc ?? parseJsonOrNull(text), file);
    case 'sse':
      return { exchanges: [exchangeFromSse(text, file)], nonModel: [], host: null, notes: [] };
    case 'chunk-log':
      return { exchanges: [exchangeFromChunkLog(text, file)], nonModel: [], host: null, notes: [] };
    case 'nock': {
      const definitions = doc ?? parseJsonOrNull(text);
      if (!isNockDocument(definitions))
        throw new InputError([
          {
            file,
            path: '',
            reason: 'not a JSON array of nock definitions (each item needs "scope" and "method")',
          },
        ]);
      return { ...exchangesFromNock(definitions, file), notes: [] };
    }
    case 'wiremock':
    case 'wiremock-journal':
      return exchangesFromWireMock(doc ?? parseJsonOrNull(text), file);
    case 'hoverfly':
      return exchangesFromHoverfly(doc ?? parseJsonOrNull(text), file);
    case 'mockserver':
      return exchangesFromMockServer(doc ?? parseJsonOrNull(text), file);
    case 'talkback':
      return exchangesFromTalkback(doc ?? parseJson5(text), file);
    case 'responses-yaml':
      return exchangesFromResponses(doc ?? parseVcrYaml(text, file), file);
    case 'exvcr': {
      const list = doc ?? parseJsonOrNull(text);
      return exchangesFromVcr(Array.isArray(list) ? { interactions: list } : list, file);
    }
    case 'vcr-json':
      return exchangesFromVcr(doc ?? parseJsonOrNull(text), file);
    case 'har':
      return exchangesFromHar(doc ?? parseJsonOrNull(text) ?? parseVcrYaml(text, file), file);
    default:
      return exchangesFromVcr(doc ?? parseVcrYaml(text, file), file);
  }
}

/**
 * Imports recording text. `file` names the source in problems and becomes `meta.imported.file`
 * (its base name) and, by default, the cassette id. `bytes`, when given, are the file's bytes
 * (formats that count bytes, httprr, read them instead of the text).
 *
 * @throws InputError (file, path, reason) for an unreadable recording, one with no model
 *   exchange (the reason lists what it holds instead), or when the produced cassette does not
 *   match the schema.
 */
export function importRecordingText(
  text: string,
  file: string,
  options: ImportOptions = {},
  bytes?: Uint8Array,
): ImportResult {
  const detected = options.format ? { format: options.format } : detectRecording(text, file);
  const { format } = detected;
  const read = readFormat(format, text, 'doc' in detected ? detected.doc : undefined, file, bytes);
  if (read.exchanges.length === 0)
    throw new InputError([
      {
        file,
        path: '',
        reason:
          read.nonModel.length === 0
            ? 'the recording holds no interaction'
            : noModelTrafficReason(read.nonModel),
      },
    ]);
  const rewritten = rewriteLegacyShapes(read.exchanges);
  const warnings = [...read.notes, ...rewritten].map((note) => `${file}: ${note}`);
  // A response's `created` dates the recording first, then the recording's own timestamps
  // (Ruby VCR `recorded_at`, HAR `startedDateTime`), then the caller's fallback.
  const recordedAt = read.recordedAt ?? options.recordedAt;
  const meta = deriveMeta(read.exchanges, read.host, format, file, {
    ...options,
    ...(recordedAt ? { recordedAt } : {}),
  });
  if (read.creator && meta.imported) meta.imported.creator = read.creator;
  if (rewritten.length > 0 && meta.imported) meta.imported.rewritten = rewritten;
  const cassette: Cassette = {
    format: CASSETTE_FORMAT,
    version: CASSETTE_VERSION,
    meta,
    deps: {},
    exchanges: read.exchanges,
    ...(read.nonModel.length > 0 ? { nonModel: read.nonModel } : {}),
  };
  const problems = validateCassette(cassette, file);
  if (problems.length > 0) throw new InputError(problems);
  for (const finding of scanForSecrets(cassette))
    warnings.push(`${file}: ${finding.path}: possible secret (${finding.kind}): ${finding.excerpt}`);
  const warn = options.onWarning ?? ((message: string) => console.warn(message));
  for (const warning of warnings) warn(warning);
  return { cassette, format, warnings };
}

/**
 * Reads a recording file and imports it ({@link importRecordingText}), returning the warnings too.
 *
 * @throws InputError when the file cannot be read or imported.
 */
export function importRecordingDetailed(file: string, options: ImportOptions = {}): ImportResult {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new InputError([{ file, path: '', reason: `cannot read the file: ${(error as Error).message}` }]);
  }
  // A gzipped recording (langchaingo commits `.httprr.gz`) is read unzipped.
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch (error) {
      throw new InputError([
        { file, path: '', reason: `a gzip file that does not unzip: ${(error as Error).message}` },
      ]);
    }
  }
  return importRecordingText(bytes.toString('utf8'), file, options, bytes);
}

/**
 * Reads a recording file and returns the cassette. Warnings go to `options.onWarning`
 * (default `console.warn`).
 *
 * @throws InputError when the file cannot be read or imported.
 */
export function importRecording(file: string, options: ImportOptions = {}): Cassette {
  return importRecordingDetailed(file, options).cassette;
}
