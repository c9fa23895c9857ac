/**
 * The cap and spill layers for one tool output. An output over the cap (characters, and tokens
 * relative to the window: `context.toolOutputMaxShare × context.windowTokens`) keeps its head
 * and tail with a marked elision that says how much was cut (lines, bytes, tokens); with the
 * spill layer the full output is first written to a file the model can page through with
 * `read_file`, kept until the session ends (handed case D03, anomalyco/opencode#1829: one test
 * log larger than the window, and the session never recovered). Spill files live inside the
 * workspace (`context.spillDir`, default `.harness-bench/spill/<session or run id>/`), so the
 * path policy allows reading them like any workspace file and no special case is needed.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { HarnessConfig } from '../config.ts';
import { describeSystemError } from '../path-display.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { countText } from './tokens.ts';

/** What happened to one output. Token counts of the full output above 1 MB are estimated (bytes / 4). */
export interface ShapedOutput {
  text: string;
  /** Characters elided (0 when the output fit). */
  cut: number;
  totalTokens: number;
  keptTokens: number;
  /** The spill file, relative to the workspace, when the full output was saved. */
  spillFile?: string;
}

/** Where a run's spill files go and how they are named. */
export interface SpillTarget {
  sandbox: Sandbox;
  workspace: string;
  /** Folder relative to the workspace, e.g. `.harness-bench/spill/run_0001`. */
  folder: string;
}

/** The largest output in tokens the cap layer lets through, or `Infinity` when the layer is off. */
export function outputTokenCap(config: HarnessConfig): number {
  const { context } = config;
  return context.layers.cap
    ? Math.max(64, Math.floor(context.toolOutputMaxShare * context.windowTokens))
    : Number.POSITIVE_INFINITY;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n += 1;
  return text.endsWith('\n') ? n - 1 : n;
}

/** Tokens of a text: the tokenizer's count, or UTF-8 bytes ÷ 4 above 1M characters (too slow to tokenize). */
export function approxTokens(text: string): number {
  return text.length > 1_000_000 ? Math.ceil(Buffer.byteLength(text, 'utf8') / 4) : countText(text);
}

/** Head (70%) and tail (30%) of `text` within `chars`, cut at line ends where one is near. */
function headAndTail(text: string, chars: number): { head: string; tail: string } {
  const headChars = Math.floor(chars * 0.7);
  const tailChars = Math.max(0, chars - headChars);
  let head = text.slice(0, headChars);
  const lastBreak = head.lastIndexOf('\n');
  if (lastBreak > headChars * 0.8) head = head.slice(0, lastBreak + 1);
  let tail = tailChars > 0 ? text.slice(text.length - tailChars) : '';
  const firstBreak = tail.indexOf('\n');
  if (firstBreak >= 0 && firstBreak < tailChars * 0.2) tail = tail.slice(firstBreak + 1);
  return { head, tail };
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

/** A file name for a call id: unsafe characters become `_`. */
export function spillFileName(callId: string): string {
  return `${callId.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_') || 'call'}.txt`;
}

/**
 * Caps one output (see the file comment). Writes the spill file through the sandbox when the
 * spill layer is on and a target is given; a failed write falls back to the plain cap and says
 * so. Never throws for a write failure.
 */
export async function shapeOutput(
  text: string,
  options: { config: HarnessConfig; callId: string; spill?: SpillTarget },
): Promise<ShapedOutput> {
  const { config } = options;
  const maxChars = config.context.toolOutputMaxChars;
  const tokenCap = outputTokenCap(config);
  if (text.length <= maxChars) {
    if (!Number.isFinite(tokenCap) || Buffer.byteLength(text, 'utf8') <= tokenCap)
      return { text, cut: 0, totalTokens: -1, keptTokens: -1 };
    const tokens = countText(text);
    if (tokens <= tokenCap) return { text, cut: 0, totalTokens: tokens, keptTokens: tokens };
  }
  const totalTokens = approxTokens(text);
  const bytes = Buffer.byteLength(text, 'utf8');
  const lines = lineCount(text);
  let spillFile: string | undefined;
  let spillNote = '';
  if (config.context.layers.spill && options.spill) {
    const relative = path.posix.join(
      options.spill.folder.split(path.sep).join('/'),
      spillFileName(options.callId),
    );
    try {
      // Below the workspace without following links: a `.harness-bench` link cannot redirect the spill file.
      await options.spill.sandbox.writeFile(path.join(options.spill.workspace, relative), text, {
        root: options.spill.workspace,
      });
      spillFile = relative;
    } catch (error) {
      spillNote = ` (the full output could not be saved: ${describeSystemError(error)})`;
    }
  }
  // Start from about 3 characters per token within the cap; the marker counts against the character cap.
  const markerRoom = 260 + (spillFile?.length ?? 0) + spillNote.length;
  let budget = Math.max(
    Math.min(100, text.length),
    Math.min(
      maxChars - markerRoom,
      Math.floor(text.length * 0.8),
      Number.isFinite(tokenCap) ? (tokenCap - 100) * 3 : maxChars,
    ),
  );
  for (let attempt = 0; ; attempt += 1) {
    const { head, tail } = headAndTail(text, budget);
    const cut = text.length - head.length - tail.length;
    const where = spillFile
      ? `full output saved in ${spillFile}: page through it with read_file (offset/limit)`
      : `narrow the request (offset/limit, a pattern) to see them${spillNote}`;
    const marker = `\n[… output truncated: ${cut} characters elided of ${text.length} (${fmt(lines)} lines, ${fmt(bytes)} bytes, ~${fmt(totalTokens)} tokens in all); ${where} …]\n`;
    const shaped = head + marker + tail;
    const kept = Number.isFinite(tokenCap) ? countText(shaped) : -1;
    if (!Number.isFinite(tokenCap) || kept <= tokenCap || attempt >= 4 || budget <= 100)
      return { text: shaped, cut, totalTokens, keptTokens: kept, ...(spillFile ? { spillFile } : {}) };
    budget = Math.max(100, Math.floor(budget * (tokenCap / kept) * 0.9));
  }
}

/**
 * Deletes the spill files of one session or run (`<workspace>/<context.spillDir>/<id>/`) when the
 * session ends; until then they stay, so the model can page through them in later turns.
 */
export async function removeSpill(workspace: string, config: HarnessConfig, id: string): Promise<void> {
  await rm(path.join(workspace, config.context.spillDir, spillFileName(id).replace(/\.txt$/, '')), {
    recursive: true,
    force: true,
  });
}

/**
 * Saves a whole output the tool already shaped (a command's head and tail) in the spill folder.
 * @returns the workspace-relative path of the file, or `undefined` when it could not be written.
 */
export async function spillWhole(
  text: string,
  target: SpillTarget & { callId: string },
): Promise<string | undefined> {
  const relative = path.posix.join(target.folder.split(path.sep).join('/'), spillFileName(target.callId));
  try {
    await target.sandbox.writeFile(path.join(target.workspace, relative), text, { root: target.workspace });
    return relative;
  } catch {
    return undefined;
  }
}
