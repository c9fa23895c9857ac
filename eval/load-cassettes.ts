/**
 * Loading recordings for a run: cassettes named by files, folders or globs, each with its
 * tool-effects sidecar and expectations, and canary cassettes (`replay/canary.ts`).
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { glob } from 'tinyglobby';
import { NOT_A_CASSETTE, declaresCassette, loadCassette } from './cassette/load.ts';
import type { Cassette } from './cassette/types.ts';
import { InputError, type InputProblem } from './errors.ts';
import { loadCassetteExpectations, type CassetteExpectations } from './expect/cassette.ts';
import { detectRecording } from './import/detect.ts';
import { byCodeUnit } from './order.ts';
import { isCanaryFile, loadCanary, type CanarySpec } from './replay/canary.ts';
import { loadSidecar, type ToolEffectRule } from './replay/tool-effects.ts';

/** A recording to replay, with the expectations on its behaviour when it has any (`expect/cassette.ts`). */
export interface LoadedCassette {
  file: string;
  cassette: Cassette;
  /** Tool-effect rules of the cassette's sidecar `<cassette>.tools.json`, when it has one. */
  toolEffects?: ToolEffectRule[];
  /** The cassette's own expectations (its `expect` block or the `<cassette>.expect.json` sidecar). */
  expectations?: CassetteExpectations;
  /** A canary (`<name>.canary.json`, `replay/canary.ts`): the divergence its replay must report. */
  canary?: CanarySpec;
}

/**
 * Loads the cassettes named by `patterns`: a file path, a folder (every `.json` under it) or a
 * glob, each with its tool-effects sidecar (`<cassette>.tools.json`) and its expectations
 * (`<cassette>.expect.json`), neither ever taken for a cassette itself. A file named explicitly must be a cassette: anything else is a problem whose reason
 * begins with "not a cassette" and, for a foreign recording, names its format and the import
 * command. Files matched by a folder or glob that do not declare themselves cassettes
 * (`SOURCES.md`, source recordings, `results.json`) are skipped and passed to `onSkipped`;
 * a `.json` that does not parse is still a problem (it may be a broken cassette). Sidecar
 * expectation files (`*.expect.json`) are never taken for cassettes; each cassette comes with its
 * expectations when it has any (`expect/cassette.ts`).
 *
 * @throws InputError listing every unreadable or invalid cassette or expectation block, and every
 *   pattern that matches no cassette.
 */
export async function loadCassettes(
  patterns: readonly string[],
  cwd: string,
  onSkipped: (file: string) => void = () => {},
): Promise<LoadedCassette[]> {
  const files = new Map<string, boolean>();
  const problems: InputProblem[] = [];
  for (const pattern of patterns) {
    const explicit = !/[*?{[]/.test(pattern) && isFile(path.resolve(cwd, pattern));
    if (explicit) {
      files.set(path.resolve(cwd, pattern), true);
      continue;
    }
    const expanded = /[*?{[]/.test(pattern) ? pattern : `${pattern.replace(/\/$/, '')}/**/*.json`;
    const matched = await glob(expanded, {
      cwd,
      absolute: true,
      ignore: ['**/node_modules/**', '**/schema/**', '**/*.tools.json', '**/*.expect.json'],
    });
    const cassettes = matched.filter((file) => {
      if (files.get(file)) return true;
      const keep = isCanaryFile(file) || globMatchIsCassette(file);
      if (!keep) onSkipped(path.relative(cwd, file) || file);
      return keep;
    });
    if (cassettes.length === 0)
      problems.push({
        file: pattern,
        path: '',
        reason:
          matched.length === 0
            ? 'no cassette matches this path or glob'
            : `matches ${matched.length} file${matched.length === 1 ? '' : 's'} but no cassette (none declares "format": "harness-bench.cassette"); foreign recordings need \`harness-bench import FILE --out DIR\` first`,
      });
    for (const file of cassettes) if (!files.has(file)) files.set(file, false);
  }
  const out: LoadedCassette[] = [];
  for (const [file, explicit] of [...files].sort(([a], [b]) => byCodeUnit(a, b))) {
    const shown = path.relative(cwd, file) || file;
    if (isCanaryFile(file)) {
      try {
        const toolEffects = loadSidecar(file);
        out.push({
          file: shown,
          ...loadCanary(file, shown),
          ...(toolEffects.length > 0 ? { toolEffects } : {}),
        });
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        problems.push(...error.problems);
      }
      continue;
    }
    let cassette: Cassette;
    try {
      cassette = loadCassette(file);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(
        ...error.problems.map((p) => ({
          ...p,
          file: shown,
          reason: explicit ? foreignHint(file, p.reason) : p.reason,
        })),
      );
      continue;
    }
    try {
      const expectations = loadCassetteExpectations(file, shown, cassette);
      const toolEffects = loadSidecar(file);
      out.push({
        file: shown,
        cassette,
        ...(toolEffects.length > 0 ? { toolEffects } : {}),
        ...(expectations ? { expectations } : {}),
      });
    } catch (error) {
      if (error instanceof InputError) problems.push(...error.problems);
      else throw error;
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return out;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** A glob match is loaded when it declares itself a cassette, or is a `.json` that does not parse. */
function globMatchIsCassette(file: string): boolean {
  if (!/\.json$/i.test(file)) return false;
  try {
    return declaresCassette(JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')));
  } catch {
    return true;
  }
}

/** Adds, to a "not a cassette" reason, the foreign format the file reads as and the import command. */
function foreignHint(file: string, reason: string): string {
  if (!reason.startsWith(NOT_A_CASSETTE)) return reason;
  try {
    const { format } = detectRecording(readFileSync(file, 'utf8'), file);
    return `${reason}; it reads as a ${format} recording: run \`harness-bench import ${path.basename(file)} --out DIR\` and replay the cassette`;
  } catch {
    return reason;
  }
}
