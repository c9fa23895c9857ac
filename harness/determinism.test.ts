import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|mts|cts|js|mjs)$/.test(name) ? [full] : [];
  });
}

/** Direct uses of the real clock or randomness, ignoring comments: `Date.now(` and `Math.random(` with optional spaces. */
const FORBIDDEN = /\b(Date\s*\.\s*now|Math\s*\.\s*random)\s*\(/;

function offendingLines(text: string): string[] {
  const withoutComments = text
    .replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:])\/\/.*$/gm, '$1');
  return withoutComments
    .split('\n')
    .flatMap((line, i) => (FORBIDDEN.test(line) ? [`${i + 1}: ${line.trim()}`] : []));
}

describe('determinism is injected', () => {
  it('the detector finds direct calls and ignores comments', () => {
    // Built from pieces so this file does not trip its own check.
    const clock = ['Date', 'now()'].join('.');
    const random = ['Math ', 'random ()'].join('.');
    expect(offendingLines(`const t = ${clock};`)).toHaveLength(1);
    expect(offendingLines(`x = ${random}`)).toHaveLength(1);
    expect(offendingLines(`const u = globalThis.${clock}`)).toHaveLength(1);
    expect(offendingLines(`// ${clock} in a comment\n/* ${random} */\nconst ok = deps.now();`)).toEqual([]);
  });

  it('no file under harness/ except deps.ts reads the real clock or randomness directly', () => {
    const files = sourceFiles(root).filter((file) => path.relative(root, file) !== 'deps.ts');
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.flatMap((file) =>
      offendingLines(readFileSync(file, 'utf8')).map((line) => `${path.relative(root, file)}:${line}`),
    );
    expect(offenders).toEqual([]);
  });
});
