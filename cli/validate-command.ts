/**
 * `harness-bench validate FILE...`: checks scenarios, cassettes and configurations, each against
 * its schema. Every problem of every file is listed (file, JSON path, reason); exit 0 when all
 * are valid, 2 otherwise.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { loadCassette } from '../eval/cassette/load.ts';
import { loadConfig } from '../eval/config-load.ts';
import { InputError, type InputProblem } from '../eval/errors.ts';
import { detectRecording } from '../eval/import/detect.ts';
import { loadScenarios } from '../eval/scenario/load.ts';
import type { CliIo } from './io.ts';

/**
 * What a file is, from its content: `cassette` (format key), `scenario` (has `expect` or `model` turns), else
 * `config`.
 */
function detectKind(file: string): 'cassette' | 'scenario' | 'config' {
  let value: unknown;
  try {
    const text = readFileSync(file, 'utf8');
    value = /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  } catch {
    return /\.ya?ml$/i.test(file) ? 'scenario' : 'config';
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.format === 'string' && record.format.includes('cassette')) return 'cassette';
    if ('expect' in record || Array.isArray(record.model) || 'task' in record) return 'scenario';
  }
  return /\.ya?ml$/i.test(file) ? 'scenario' : 'config';
}

/** The foreign recording format a file reads as (VCR, HAR, nock, …), or `null`. */
function foreignFormat(file: string): string | null {
  try {
    return detectRecording(readFileSync(file, 'utf8'), file).format;
  } catch {
    return null;
  }
}

/** Runs `validate`; resolves with 0 when every file is valid. @throws InputError (exit 2) */
export async function validateCommand(files: readonly string[], io: CliIo): Promise<number> {
  const problems: InputProblem[] = [];
  for (const file of files) {
    const absolute = path.resolve(io.cwd, file);
    const kind = detectKind(absolute);
    const foreign = kind === 'cassette' ? null : foreignFormat(absolute);
    if (foreign) {
      problems.push({
        file,
        path: '',
        reason: `not a cassette: it reads as a ${foreign} recording; run \`harness-bench import ${file} --out DIR\` first`,
      });
      continue;
    }
    try {
      if (kind === 'cassette') loadCassette(absolute);
      else if (kind === 'config') loadConfig(absolute);
      else await loadScenarios([absolute], io.cwd);
      io.stdout(`ok ${file} (${kind})\n`);
    } catch (error) {
      if (error instanceof InputError) problems.push(...error.problems.map((p) => ({ ...p, file })));
      else problems.push({ file, path: '', reason: (error as Error).message });
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return 0;
}
