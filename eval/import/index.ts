/**
 * `importRecording`: a foreign recording (VCR YAML in either form, chunk log, raw SSE, nock
 * definitions) → a
 * cassette, version 1. The format is detected from the content; provenance comes from options.
 * The result is validated against the cassette schema and scanned for secrets (findings are
 * warnings: public fixtures keep some placeholders and addresses on purpose).
 */
import { readFileSync } from 'node:fs';
import { InputError } from '../errors.ts';
import { validateCassette } from '../cassette/load.ts';
import { scanForSecrets } from '../cassette/secret-scan.ts';
import {
  CASSETTE_FORMAT,
  CASSETTE_VERSION,
  type Cassette,
  type Exchange,
  type ImportFormat,
} from '../cassette/types.ts';
import { deriveMeta, looksLikeSse, type ImportOptions } from './common.ts';
import { exchangesFromNock, isNockDocument } from './nock.ts';
import { exchangeFromChunkLog, exchangeFromSse } from './stream-logs.ts';
import { exchangesFromVcr, isVcrDocument, parseVcrYaml } from './vcr.ts';

export type { ImportOptions } from './common.ts';
export { HEADER_ALLOWLIST, allowlistHeaders } from './common.ts';

/** An import's cassette, the format it was read as, and its warnings (already passed to `onWarning`). */
export interface ImportResult {
  cassette: Cassette;
  format: ImportFormat;
  warnings: string[];
}

/**
 * Detects the format of a recording from its text: SSE when the first non-empty line is an SSE
 * field (`data:`, `event:`, …) or comment; chunk log when it starts with `{`; nock definitions
 * when it is a JSON array of objects with `scope` and `method`; otherwise YAML,
 * `vcr-yaml-parsed-body` when any interaction uses pydantic-ai's `parsed_body`.
 *
 * @throws InputError when the text is none of these.
 */
export function detectFormat(text: string, file: string): ImportFormat {
  if (looksLikeSse(text)) return 'sse';
  const first =
    text
      .split(/\r?\n/)
      .find((line) => line.trim() !== '')
      ?.trim() ?? '';
  if (first === '') throw new InputError([{ file, path: '', reason: 'empty recording' }]);
  if (first.startsWith('{')) return 'chunk-log';
  if (first.startsWith('[')) {
    if (isNockDocument(parseJsonOrNull(text))) return 'nock';
    throw new InputError([
      {
        file,
        path: '',
        reason: 'a JSON array but not nock definitions (each item needs "scope" and "method")',
      },
    ]);
  }
  const doc = parseVcrYaml(text, file);
  if (!isVcrDocument(doc))
    throw new InputError([
      {
        file,
        path: '',
        reason: 'unknown recording format: not SSE, not a chunk log, not a VCR YAML cassette',
      },
    ]);
  return exchangesFromVcr(doc, file).format;
}

function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Imports recording text. `file` names the source in problems and becomes `meta.imported.file`
 * (its base name) and, by default, the cassette id.
 *
 * @throws InputError (file, path, reason) for an unreadable recording or when the produced
 *   cassette does not match the schema.
 */
export function importRecordingText(text: string, file: string, options: ImportOptions = {}): ImportResult {
  const format = options.format ?? detectFormat(text, file);
  let exchanges: Exchange[];
  let host: string | null = null;
  const warnings: string[] = [];
  if (format === 'sse') exchanges = [exchangeFromSse(text, file)];
  else if (format === 'nock') {
    const definitions = parseJsonOrNull(text);
    if (!isNockDocument(definitions))
      throw new InputError([
        {
          file,
          path: '',
          reason: 'not a JSON array of nock definitions (each item needs "scope" and "method")',
        },
      ]);
    ({ exchanges, host } = exchangesFromNock(definitions, file));
  } else if (format === 'chunk-log') exchanges = [exchangeFromChunkLog(text, file)];
  else {
    const vcr = exchangesFromVcr(parseVcrYaml(text, file), file);
    exchanges = vcr.exchanges;
    host = vcr.host;
    warnings.push(...vcr.notes.map((note) => `${file}: ${note}`));
  }
  if (exchanges.length === 0)
    throw new InputError([{ file, path: '', reason: 'the recording holds no exchange' }]);
  const cassette: Cassette = {
    format: CASSETTE_FORMAT,
    version: CASSETTE_VERSION,
    meta: deriveMeta(exchanges, host, format, file, options),
    deps: {},
    exchanges,
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
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError([{ file, path: '', reason: `cannot read the file: ${(error as Error).message}` }]);
  }
  return importRecordingText(text, file, options);
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
