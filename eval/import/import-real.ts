/**
 * Imports the real recordings kept in `recordings/real/sources/` (the files as their projects
 * committed them, redacted) into `recordings/real/<id>.json`, and rewrites the generated part of
 * `recordings/real/SOURCES.md` and `sources/SHA256SUMS`.
 *
 *   npx tsx eval/import/import-real.ts [sourceDir] [outDir]
 *
 * Provenance (repository, path, snapshot commit, last change, licence, what was redacted or
 * trimmed) is `sources/manifest.yaml`, one entry per source file. Prints one summary line per
 * file and every warning.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../package-root.ts';
import { parse as parseYaml } from 'yaml';
import { saveCassette } from '../cassette/load.ts';
import type { Cassette, CassetteSource } from '../cassette/types.ts';
import { InputError, type InputProblem } from '../errors.ts';
import { decodeRecordedResponse } from '../replay/decode.ts';
import { importRecordingDetailed, type ImportResult } from './index.ts';

/** `recordings/real/sources/` of this checkout. */
export const REAL_SOURCES_DIR = `${join(PACKAGE_ROOT, 'recordings', 'real', 'sources')}/`;
/** `recordings/real/` of this checkout. */
export const REAL_DIR = `${join(PACKAGE_ROOT, 'recordings', 'real')}/`;

/** One real recording, as `sources/manifest.yaml` describes it. */
export interface RealRecording {
  /** File name in the sources folder; the cassette id is its name without extensions. */
  file: string;
  title: string;
  source: CassetteSource;
  /** ISO date of the last upstream change (fallback `recordedAt` when nothing in the file dates it). */
  changed: string;
  /** What the recording shows (becomes `meta.description`). */
  description?: string;
  /** What we replaced with `REDACTED` in the source file, for SOURCES.md. */
  redacted?: string;
  /** What we cut from the upstream file, and why, for SOURCES.md. */
  trimmed?: string;
}

const REQUIRED = ['file', 'title', 'repository', 'path', 'commit', 'changed', 'license'] as const;
const OPTIONAL = ['lastChange', 'description', 'redacted', 'trimmed'] as const;

/**
 * Reads `manifest.yaml` of a sources folder.
 *
 * @throws InputError (file, `/<index>/<field>`, reason) for a missing or non-string field, an
 *   unknown field or a duplicate file.
 */
export function loadManifest(sourceDir: string = REAL_SOURCES_DIR): RealRecording[] {
  const file = join(sourceDir, 'manifest.yaml');
  const doc: unknown = parseYaml(readFileSync(file, 'utf8'));
  if (!Array.isArray(doc)) throw new InputError([{ file, path: '', reason: 'must be a list of recordings' }]);
  const problems: InputProblem[] = [];
  const seen = new Set<string>();
  const out: RealRecording[] = [];
  doc.forEach((entry: unknown, i) => {
    const at = `/${i}`;
    if (typeof entry !== 'object' || entry === null) {
      problems.push({ file, path: at, reason: 'must be an object' });
      return;
    }
    const e = entry as Record<string, unknown>;
    for (const key of Object.keys(e))
      if (!(REQUIRED as readonly string[]).includes(key) && !(OPTIONAL as readonly string[]).includes(key))
        problems.push({ file, path: `${at}/${key}`, reason: 'unknown field' });
    for (const key of [...REQUIRED, ...OPTIONAL])
      if (
        (REQUIRED as readonly string[]).includes(key)
          ? typeof e[key] !== 'string'
          : e[key] !== undefined && typeof e[key] !== 'string'
      )
        problems.push({ file, path: `${at}/${key}`, reason: 'must be a string' });
    if (typeof e.file === 'string' && seen.has(e.file))
      problems.push({ file, path: `${at}/file`, reason: `duplicate file ${e.file}` });
    seen.add(String(e.file));
    out.push({
      file: String(e.file),
      title: String(e.title),
      source: {
        repository: String(e.repository),
        path: String(e.path),
        commit: String(e.commit),
        license: String(e.license),
        ...(typeof e.lastChange === 'string' ? { lastChange: e.lastChange } : {}),
      },
      changed: String(e.changed),
      ...(typeof e.description === 'string' ? { description: e.description } : {}),
      ...(typeof e.redacted === 'string' ? { redacted: e.redacted } : {}),
      ...(typeof e.trimmed === 'string' ? { trimmed: e.trimmed } : {}),
    });
  });
  if (problems.length > 0) throw new InputError(problems);
  return out;
}

/** Imports one recording of the manifest (no warnings printed). @throws InputError */
export function importRealRecording(
  recording: RealRecording,
  sourceDir: string = REAL_SOURCES_DIR,
): ImportResult {
  const file = join(sourceDir, recording.file);
  // By bytes: httprr counts them, and gzipped sources are unzipped first.
  return importRecordingDetailed(file, {
    title: recording.title,
    source: recording.source,
    recordedAt: recording.changed,
    ...(recording.description ? { description: recording.description } : {}),
    onWarning: () => {},
  });
}

/** `sha256  name` lines of every source file (manifest included), sorted by name. */
export function sourceDigests(sourceDir: string = REAL_SOURCES_DIR): string {
  return readdirSync(sourceDir)
    .filter((name) => name !== 'SHA256SUMS')
    .sort()
    .map(
      (name) =>
        `${createHash('sha256')
          .update(readFileSync(join(sourceDir, name)))
          .digest('hex')}  ${name}`,
    )
    .join('\n')
    .concat('\n');
}

const MARKER = '<!-- Generated by eval/import/import-real.ts from sources/manifest.yaml: edit there. -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** The generated part of SOURCES.md: the recordings table, redactions, trims, licences. */
export function sourcesTable(
  recordings: readonly RealRecording[],
  cassettes: ReadonlyMap<string, Cassette>,
): string {
  const rows = recordings.map((r) => {
    const c = cassettes.get(r.file);
    const id = c?.meta.id ?? r.file;
    const format = c?.meta.imported?.format ?? '?';
    const traffic = c
      ? `${c.exchanges.length} model${c.nonModel ? ` + ${c.nonModel.length} non-model` : ''}`
      : '?';
    const change = r.source.lastChange ? ` / ${r.source.lastChange}` : '';
    return `| \`${id}\` | ${r.source.repository} · \`${cell(r.source.path)}\` | ${r.source.commit}${change} (${r.changed}) | ${r.source.license} | ${format}, ${traffic} | ${cell(r.title)}${r.description ? `: ${cell(r.description)}` : ''} |`;
  });
  const projects = [...new Set(recordings.map((r) => `${r.source.repository} (${r.source.license})`))].sort();
  const redacted = recordings.filter((r) => r.redacted);
  const trimmed = recordings.filter((r) => r.trimmed);
  return [
    MARKER,
    '',
    `## Recordings (${recordings.length}, from ${projects.length} projects)`,
    '',
    '| cassette | source repository · path | snapshot / last change (date) | licence | format, exchanges | contents |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    '## Redactions (our changes to the source files)',
    '',
    'Replaced by the literal `REDACTED`; everything else in each source file is byte for byte the upstream',
    'file, apart from the trims listed below.',
    '',
    '| source file | replaced |',
    '|---|---|',
    ...redacted.map((r) => `| \`${r.file}\` | ${cell(r.redacted!)} |`),
    '',
    '## Trimmed',
    '',
    ...(trimmed.length === 0
      ? ['Nothing was trimmed.']
      : trimmed.map((r) => `- \`${r.file}\`: ${cell(r.trimmed!)}.`)),
    '',
    '## Projects and licences',
    '',
    ...projects.map((p) => `- ${p}`),
    '',
  ].join('\n');
}

/** Replaces everything from the generated-part marker to the end of SOURCES.md (or appends it). */
export function withSourcesTable(markdown: string, table: string): string {
  const at = markdown.indexOf(MARKER);
  return `${(at >= 0 ? markdown.slice(0, at) : `${markdown.trimEnd()}\n\n`).trimEnd()}\n\n${table}`;
}

/** Imports every recording of the manifest, writes the cassettes, SHA256SUMS and SOURCES.md. */
function importReal(
  sourceDir: string = REAL_SOURCES_DIR,
  outDir: string = REAL_DIR,
  log: (line: string) => void = console.log,
): void {
  const recordings = loadManifest(sourceDir);
  const cassettes = new Map<string, Cassette>();
  for (const recording of recordings) {
    const { cassette, format, warnings } = importRealRecording(recording, sourceDir);
    cassettes.set(recording.file, cassette);
    saveCassette(join(outDir, `${cassette.meta.id}.json`), cassette);
    const turns = cassette.exchanges.map((exchange, i) => {
      const kind = exchange.response.events ? `stream(${exchange.response.events.length})` : 'json';
      let calls = '';
      try {
        calls = decodeRecordedResponse(exchange.response, i)
          .toolCalls.map((c) => String(c.function?.name))
          .join('+');
      } catch (error) {
        calls = `error:${(error as Error).message.slice(0, 40)}`;
      }
      return `${exchange.response.status}/${kind}${calls ? `[${calls}]` : ''}`;
    });
    const other = cassette.nonModel ? `; non-model: ${cassette.nonModel.map((n) => n.note).join(', ')}` : '';
    log(
      `${cassette.meta.id}: ${format}, ${cassette.exchanges.length} exchange(s): ${turns.join(' ')}${other}`,
    );
    for (const warning of warnings) log(`  WARNING ${warning}`);
  }
  writeFileSync(join(sourceDir, 'SHA256SUMS'), sourceDigests(sourceDir));
  const sourcesMd = join(outDir, 'SOURCES.md');
  writeFileSync(
    sourcesMd,
    withSourcesTable(readFileSync(sourcesMd, 'utf8'), sourcesTable(recordings, cassettes)),
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  importReal(process.argv[2] ?? REAL_SOURCES_DIR, process.argv[3] ?? REAL_DIR);
