/**
 * `harness-bench validate PATH...`: checks scenarios, cassettes, configurations and project
 * configurations, each against its schema. A path is a file, a folder (every `.json`, `.yaml`
 * and `.yml` under it, `node_modules/` and `schema/` folders left out) or a glob; every message
 * names the real file, never the glob. What a file is comes from its content. A file named
 * explicitly that is none of these is a problem ("not a scenario, cassette or configuration");
 * one found in a folder is listed as skipped. Every problem of every file is listed (file, JSON
 * path, reason); exit 0 when all are valid, 2 otherwise.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { glob } from 'tinyglobby';
import { parse as parseYaml } from 'yaml';
import { CONFIG_SCHEMA } from '../harness/config.ts';
import { declaresCassette, loadCassette } from '../eval/cassette/load.ts';
import { loadConfig } from '../eval/config-load.ts';
import { editDistance } from '../eval/did-you-mean.ts';
import { InputError, type InputProblem } from '../eval/errors.ts';
import { detectRecording } from '../eval/import/detect.ts';
import { inputSizeProblem } from '../eval/input-limits.ts';
import { loadProjectConfig, PROJECT_CONFIG_NAMES } from '../eval/project-config.ts';
import { loadScenarios } from '../eval/scenario/load.ts';
import type { CliIo } from './io.ts';

/** What a file is. */
type Kind = 'scenario' | 'cassette' | 'config' | 'project configuration';

/** The message for a file that is none of the kinds. */
export const NOT_AN_INPUT = 'not a scenario, cassette or configuration';

const INPUT = /\.(json|ya?ml)$/i;
const SCENARIO_KEYS = ['id', 'task', 'model', 'expect', 'workspace', 'tools', 'fakeTools'];
const CONFIG_KEYS = Object.keys((CONFIG_SCHEMA as { properties: Record<string, unknown> }).properties);

/** Some keys are keys of this kind, or one typo (one edit) away from one. */
const looksLike = (keys: string[], known: readonly string[]) =>
  keys.some(
    (k) => known.includes(k) || known.some((n) => editDistance(k.toLowerCase(), n.toLowerCase()) <= 1),
  );

/** What a file is, from its name and content; a string is why it is none of them. */
function detectKind(file: string): Kind | { not: string } | { broken: true } {
  if (PROJECT_CONFIG_NAMES.includes(path.basename(file))) return 'project configuration';
  if (!INPUT.test(file)) return { not: `${NOT_AN_INPUT} (those are .json, .yaml or .yml files)` };
  let value: unknown;
  try {
    const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
    value = /\.json$/i.test(file) ? JSON.parse(text) : parseYaml(text);
  } catch {
    return { broken: true };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { not: NOT_AN_INPUT };
  if (declaresCassette(value)) return 'cassette';
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (typeof record.format === 'string') return { not: `${NOT_AN_INPUT} (its format is "${record.format}")` };
  if (looksLike(keys, ['task', 'model', 'expect'])) return 'scenario';
  if (keys.length === 0 || (/\.json$/i.test(file) && looksLike(keys, CONFIG_KEYS))) return 'config';
  if (looksLike(keys, SCENARIO_KEYS)) return 'scenario';
  return { not: NOT_AN_INPUT };
}

/** The foreign recording format a file reads as (VCR, HAR, nock, …), or `null`. */
function foreignFormat(file: string): string | null {
  try {
    return detectRecording(readFileSync(file, 'utf8'), file).format;
  } catch {
    return null;
  }
}

/** The files of one argument, each with whether it was named explicitly. */
async function expand(
  arg: string,
  cwd: string,
): Promise<{ files: string[]; explicit: boolean } | InputProblem> {
  const absolute = path.resolve(cwd, arg);
  const info = statSync(absolute, { throwIfNoEntry: false });
  if (info?.isFile()) return { files: [absolute], explicit: true };
  const isGlob = /[*?{[]/.test(arg);
  if (!info && !isGlob) return { file: arg, path: '', reason: 'no such file or folder' };
  const found = await glob(info?.isDirectory() ? ['**/*.{json,yaml,yml}'] : [arg], {
    cwd: info?.isDirectory() ? absolute : cwd,
    absolute: true,
    ignore: ['**/node_modules/**', '**/schema/**'],
  });
  if (found.length === 0)
    return {
      file: arg,
      path: '',
      reason: info ? 'the folder holds no .json, .yaml or .yml file' : 'no file matches this glob',
    };
  return { files: found.map((f) => path.resolve(f)).sort(), explicit: false };
}

/** Runs `validate`; resolves with 0 when every file is valid. @throws InputError (exit 2) */
export async function validateCommand(args: readonly string[], io: CliIo): Promise<number> {
  const problems: InputProblem[] = [];
  const files = new Map<string, boolean>();
  for (const arg of args) {
    const expanded = await expand(arg, io.cwd);
    if ('reason' in expanded) problems.push(expanded);
    else for (const f of expanded.files) files.set(f, (files.get(f) ?? false) || expanded.explicit);
  }
  // As the scenario loader names files: relative to the working folder when inside it.
  const shown = (f: string) => {
    const rel = path.relative(io.cwd, f);
    return rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? f : rel.split(path.sep).join('/');
  };
  const scenarios: string[] = [];
  const valid: [string, Kind][] = [];
  for (const [absolute, explicit] of files) {
    const file = shown(absolute);
    let kind = detectKind(absolute);
    if (typeof kind === 'object' && 'broken' in kind)
      kind = /\.json$/i.test(absolute) ? 'config' : 'scenario';
    if (typeof kind === 'object' || kind === 'config') {
      const foreign = foreignFormat(absolute);
      if (foreign) {
        const reason = `not a cassette: it reads as a ${foreign} recording; run \`harness-bench import ${file} --out DIR\` first`;
        if (explicit) problems.push({ file, path: '', reason });
        else io.stdout(`skip ${file}: ${reason}\n`);
        continue;
      }
    }
    if (typeof kind === 'object') {
      if (explicit) problems.push({ file, path: '', reason: kind.not });
      else io.stdout(`skip ${file}: ${kind.not}\n`);
      continue;
    }
    const tooLarge = inputSizeProblem(
      absolute,
      kind === 'cassette' ? 'cassette' : kind === 'scenario' ? 'scenario' : 'config',
      file,
    );
    if (tooLarge) {
      problems.push(tooLarge);
      continue;
    }
    if (kind === 'scenario') {
      scenarios.push(absolute);
      continue;
    }
    try {
      if (kind === 'cassette') loadCassette(absolute);
      else if (kind === 'config') loadConfig(absolute);
      else loadProjectConfig(absolute);
      valid.push([file, kind]);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(...error.problems.map((p) => ({ ...p, file })));
    }
  }
  if (scenarios.length > 0) {
    let failed = new Set<string>();
    try {
      await loadScenarios(scenarios, io.cwd);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(...error.problems);
      failed = new Set(error.problems.map((p) => p.file));
    }
    for (const absolute of scenarios) {
      const file = shown(absolute);
      if (!failed.has(file)) valid.push([file, 'scenario']);
    }
  }
  for (const [file, kind] of valid.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    io.stdout(`ok ${file} (${kind})\n`);
  if (problems.length > 0) throw new InputError(problems);
  return 0;
}
