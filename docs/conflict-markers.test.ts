/**
 * No text file of the repository carries a merge conflict marker (`<<<<<<< `, a line of seven
 * `=`, `>>>>>>> ` at the start of a line): a merge resolved in the code but not in a page once
 * left both halves of a table in `docs/loop.md`, and no other test reads every page.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Folders never read: dependencies, git's own, and output that runs create. */
const SKIP = new Set(['node_modules', '.git', '.harness-bench', '.stryker-tmp', 'coverage']);
const TEXT = /\.(ts|js|mjs|cjs|md|json|jsonc|yaml|yml|sh|txt|html|py)$/;
/** A marker line: git writes these three at the start of a line, and nothing else here does. */
const MARKER = /^(<{7} |={7}$|>{7} )/m;

function textFiles(dir: string, into: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path.relative(ROOT, full) === path.join('reports', 'latest')) continue;
      textFiles(full, into);
    } else if (entry.isFile() && TEXT.test(entry.name)) into.push(full);
  }
  return into;
}

describe('the repository', () => {
  it('has no merge conflict markers in any text file', () => {
    const marked = textFiles(ROOT).filter((file) => MARKER.test(readFileSync(file, 'utf8')));
    expect(marked.map((file) => path.relative(ROOT, file))).toEqual([]);
  });

  it('sees a marker where git would write one, and not inside a line', () => {
    expect(MARKER.test('a\n<<<<<<< HEAD\nb')).toBe(true);
    expect(MARKER.test('x\n=======\ny')).toBe(true);
    expect(MARKER.test('see `<<<<<<< HEAD` in a sentence')).toBe(false);
  });
});
