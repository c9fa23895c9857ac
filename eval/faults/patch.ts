/**
 * Applies a fault's patches to a copy of the repository. Matching ignores whitespace (a
 * reformatted file still matches) but nothing else; the text must occur exactly once. When the
 * code has moved to another file (a refactoring split the module), the patch follows it if the
 * text occurs exactly once among the other source files, and says so. Otherwise the fault is
 * stale: {@link PatchDoesNotApplyError} names the fault, the file and the reason.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Fault, FaultPatch } from './types.ts';

/** A patch whose search text is missing or ambiguous: the fault must be refreshed. */
export class PatchDoesNotApplyError extends Error {
  override readonly name = 'PatchDoesNotApplyError';
  constructor(
    readonly fault: string,
    readonly file: string,
    reason: string,
  ) {
    super(
      `patch does not apply: fault ${fault}, ${file}: ${reason}; refresh the fault in eval/faults/catalogue/`,
    );
  }
}

/** Where one patch went: its file, and the file it was written for when the code had moved. */
export interface AppliedPatch {
  file: string;
  movedFrom?: string;
}

/** `text` without whitespace, and for each kept character its offset in `text`. */
function squeeze(text: string): { text: string; offsets: number[] } {
  const offsets: number[] = [];
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (c === ' ' || c === '\n' || c === '\t' || c === '\r') continue;
    out += c;
    offsets.push(i);
  }
  return { text: out, offsets };
}

/** Offsets `[start, end)` in `source` of every whitespace-insensitive occurrence of `search`. */
export function findLoose(source: string, search: string): [number, number][] {
  const needle = squeeze(search).text;
  if (needle === '') return [];
  const hay = squeeze(source);
  const found: [number, number][] = [];
  for (let at = hay.text.indexOf(needle); at >= 0; at = hay.text.indexOf(needle, at + 1))
    found.push([hay.offsets[at]!, hay.offsets[at + needle.length - 1]! + 1]);
  return found;
}

/** Source files (not tests) under `harness/` and `eval/` of `root`, relative, `/`-separated. */
function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        // The catalogue holds every search text itself: a patch never moves into it.
        if (
          entry.name !== 'node_modules' &&
          entry.name !== 'fixtures' &&
          relative !== 'eval/faults/catalogue'
        )
          walk(relative);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) out.push(relative);
    }
  };
  for (const top of ['harness', 'eval']) if (existsSync(path.join(root, top))) walk(top);
  return out;
}

function read(root: string, file: string): string | undefined {
  try {
    return readFileSync(path.join(root, file), 'utf8');
  } catch {
    return undefined;
  }
}

/** Where `patch` applies in `root`: the file, its text and the one match. @throws PatchDoesNotApplyError */
function locate(
  root: string,
  fault: string,
  patch: FaultPatch,
): { file: string; text: string; at: [number, number]; moved: boolean } {
  const own = read(root, patch.file);
  if (own !== undefined) {
    const hits = findLoose(own, patch.search);
    if (hits.length === 1) return { file: patch.file, text: own, at: hits[0]!, moved: false };
    if (hits.length > 1)
      throw new PatchDoesNotApplyError(
        fault,
        patch.file,
        `the search text occurs ${hits.length} times; make it longer so it names one place`,
      );
  }
  const elsewhere: { file: string; text: string; at: [number, number] }[] = [];
  for (const file of sourceFiles(root)) {
    if (file === patch.file) continue;
    const text = read(root, file)!;
    const hits = findLoose(text, patch.search);
    for (const at of hits) elsewhere.push({ file, text, at });
  }
  if (elsewhere.length === 1) return { ...elsewhere[0]!, moved: true };
  const where = own === undefined ? 'the file does not exist' : 'the search text is not in the file';
  throw new PatchDoesNotApplyError(
    fault,
    patch.file,
    elsewhere.length === 0
      ? `${where}, nor anywhere else under harness/ or eval/ (the code changed)`
      : `${where}, and it occurs ${elsewhere.length} times elsewhere (${[...new Set(elsewhere.map((e) => e.file))].join(', ')})`,
  );
}

/**
 * Applies every patch of `fault` to the tree at `root`, in order, writing the files in place.
 * Nothing is written unless every patch applies.
 * @throws PatchDoesNotApplyError when a search text is missing or ambiguous
 */
export function applyFault(root: string, fault: Fault): AppliedPatch[] {
  const pending = new Map<string, string>();
  const applied: AppliedPatch[] = [];
  for (const patch of fault.patches) {
    const located = locate(root, fault.id, patch);
    const text = pending.get(located.file) ?? located.text;
    const hits = text === located.text ? [located.at] : findLoose(text, patch.search);
    if (hits.length !== 1)
      throw new PatchDoesNotApplyError(
        fault.id,
        located.file,
        `the search text occurs ${hits.length} times after the fault's earlier patches`,
      );
    const [start, end] = hits[0]!;
    pending.set(located.file, `${text.slice(0, start)}${patch.replace}${text.slice(end)}`);
    applied.push({ file: located.file, ...(located.moved ? { movedFrom: patch.file } : {}) });
  }
  for (const [file, text] of pending) writeFileSync(path.join(root, file), text);
  return applied;
}

/** Checks that every patch of `fault` applies to `root`, without writing. @throws PatchDoesNotApplyError */
export function checkFault(root: string, fault: Fault): AppliedPatch[] {
  return fault.patches.map((patch) => {
    const spot = locate(root, fault.id, patch);
    if (spot.text.slice(spot.at[0], spot.at[1]) === patch.replace)
      throw new PatchDoesNotApplyError(fault.id, patch.file, 'the replacement equals the search text');
    return { file: spot.file, ...(spot.moved ? { movedFrom: patch.file } : {}) };
  });
}
