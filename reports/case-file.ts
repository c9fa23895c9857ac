/**
 * The per-case sidecar (`<out>/cases/<config>/<case-id>.json`, format `harness-bench.case`,
 * version 1): everything that happened inside one case under one configuration — the requests
 * the harness sent, the model's responses, the decision ledger, the events and the final
 * transcript — so `results.json` stays small and links to it (`CaseResult.transcript`). Built
 * only from the run, whose clock and ids are injected: two runs of a suite write byte-identical
 * sidecars (the workspace shows as `$WS`, the only times are the injected clock's `atMs`).
 * `harness-bench show` prints it; `report.html` embeds it.
 */
import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CaseResult } from '../eval/results.ts';
import type { HarnessEvent } from '../harness/events.ts';
import type { Ledger, RunResult } from '../harness/ledger.ts';
import type { ChatMessage, ModelRequest } from '../harness/model/types.ts';

/** One model response as the harness received it: the text and the tool calls of one model call. */
export interface CaseResponse {
  /** 1-based turn (`model_call_end.turn`); a compaction's summarisation call has the turn it served. */
  turn: number;
  /** Subagent path (`[]` for the top-level run). */
  scope: readonly string[];
  ok: boolean;
  finishReason: string | null;
  content: string | null;
  /** The calls as the model sent them (arguments as raw text, before repair). */
  toolCalls: { callId: string; tool: string; arguments: string }[];
  usage: { promptTokens: number; completionTokens: number };
  error?: { code: string; message: string };
}

/** The whole sidecar. `run` is absent for a case that never ran (skipped, or errored before the run). */
export interface CaseFile {
  format: 'harness-bench.case';
  version: 1;
  id: string;
  config: string;
  kind: CaseResult['kind'];
  file: string;
  status: CaseResult['status'];
  stopReason: CaseResult['stopReason'];
  stopDetail?: string;
  checks: CaseResult['checks'];
  run?: {
    finalAnswer: string | null;
    ledger: Ledger;
    requests: ModelRequest[];
    responses: CaseResponse[];
    /** The conversation as it ended (system, user, assistant and tool messages). */
    transcript: ChatMessage[];
    events: HarnessEvent[];
  };
  /**
   * A foreign harness's own output (`--harness FILE|NAME`, `docs/adapters.md`): a command's exit
   * code, stdout and stderr (each cut at 256 KB), the time-out or error it met, its final answer.
   */
  harness?: HarnessOutput;
}

/** What a foreign harness printed and returned for one case. */
export interface HarnessOutput {
  finalAnswer: string | null;
  exitCode?: number | null;
  stdout?: string;
  stderr?: string;
  timedOut?: string;
  error?: string;
  /** Wall time in ms; never written to the sidecar (two runs write the same bytes). */
  durationMs?: number;
}

/** The model responses of a run, from its events (each `model_call_end` with the calls that follow it). */
export function responsesOf(events: readonly HarnessEvent[]): CaseResponse[] {
  const out: CaseResponse[] = [];
  const open = new Map<string, CaseResponse>();
  for (const e of events) {
    const key = `${e.scope.join('/')}#`;
    if (e.type === 'model_call_end') {
      const response: CaseResponse = {
        turn: e.turn,
        scope: e.scope,
        ok: e.ok,
        finishReason: e.finishReason,
        content: e.content,
        toolCalls: [],
        usage: { promptTokens: e.usage.promptTokens, completionTokens: e.usage.completionTokens },
        ...(e.error ? { error: e.error } : {}),
      };
      out.push(response);
      open.set(key, response);
    } else if (e.type === 'tool_call_start') {
      const raw = e.rawArguments;
      open.get(key)?.toolCalls.push({
        callId: e.callId,
        tool: e.tool,
        arguments: typeof raw === 'string' ? raw : raw === undefined ? e.arguments : JSON.stringify(raw),
      });
    }
  }
  return out;
}

/** The sidecar of one case from its result and (when it ran) its harness run. */
export function caseFile(result: CaseResult, run: RunResult | undefined, output?: HarnessOutput): CaseFile {
  return {
    format: 'harness-bench.case',
    version: 1,
    id: result.id,
    config: result.config,
    kind: result.kind,
    file: result.file,
    status: result.status,
    stopReason: result.stopReason,
    ...(result.stopDetail ? { stopDetail: result.stopDetail } : {}),
    checks: result.checks,
    ...(run
      ? {
          run: {
            finalAnswer: run.finalAnswer,
            ledger: run.ledger,
            requests: run.requests,
            responses: responsesOf(run.events),
            transcript: run.messages,
            events: run.events,
          },
        }
      : {}),
    ...(output ? { harness: withoutDuration(output) } : {}),
  };
}

function withoutDuration({ durationMs: _ms, ...rest }: HarnessOutput): HarnessOutput {
  return rest;
}

/** A path segment safe on every file system: letters, digits, `.`, `_`, `-`; anything else becomes `_`. */
const segment = (text: string) => {
  const safe = text.replace(/[^A-Za-z0-9._-]/g, '_');
  return /^\.+$/.test(safe) || safe === '' ? safe.replace(/\./g, '_') || '_' : safe;
};

/**
 * Where the sidecar of `id` under `config` lives, relative to the results folder (POSIX
 * separators, as stored in `CaseResult.transcript`): `cases/<config>/<id>.json`, the id's `/`
 * kept as folders and every other unsafe character replaced by `_`.
 */
export function caseFilePath(config: string, id: string): string {
  return ['cases', segment(config), ...id.split('/').map(segment)].join('/').concat('.json');
}

/** The labels the runner's temp folders get (`eval/scenario/workspace.ts`, `run-recording.ts`, `run-scenario.ts`). */
const TEMP_LABELS: Record<string, string> = { ws: '$WS', out: '$OUTSIDE', notes: '$NOTES', replay: '$WS' };

/**
 * The runner's temp folders (`<tmp>/hb-ws-XXXXXX`, `hb-out-`, `hb-notes-`, `hb-replay-`, as
 * `mkdtemp` names them), which the harness shows the model as `$WS`/`$OUTSIDE` but keeps resolved
 * in policy decisions: matched under the temp folder and its real path.
 */
const tempFolders = (() => {
  const roots = [
    ...new Set([
      tmpdir(),
      (() => {
        try {
          return realpathSync(tmpdir());
        } catch {
          return tmpdir();
        }
      })(),
    ]),
  ];
  const asPattern = (s: string) =>
    JSON.stringify(s)
      .slice(1, -1)
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `(?:${roots.map(asPattern).join('|')})[/\\\\]+hb-(ws|out|notes|replay)-[A-Za-z0-9]{6}`,
    'g',
  );
})();

/**
 * The canonical text of a sidecar (2-space JSON, trailing newline), the runner's temp folders
 * replaced by their labels so two runs write the same bytes.
 */
export function caseFileText(file: CaseFile): string {
  return `${JSON.stringify(file, null, 2)}\n`.replace(tempFolders, (_, kind: string) => TEMP_LABELS[kind]!);
}

/**
 * Writes the sidecar of `result` into `dir` atomically (temp file + rename) and returns its path
 * relative to `dir`. @throws the file system's error when `dir` cannot be written
 */
export function writeCaseFile(
  dir: string,
  result: CaseResult,
  run: RunResult | undefined,
  output?: HarnessOutput,
): string {
  const relative = caseFilePath(result.config, result.id);
  const target = path.join(dir, ...relative.split('/'));
  mkdirSync(path.dirname(target), { recursive: true });
  const temp = `${target}.${process.pid}.tmp`;
  writeFileSync(temp, caseFileText(caseFile(result, run, output)));
  renameSync(temp, target);
  return relative;
}

/**
 * Reads the sidecar `relative` (a `CaseResult.transcript`) under `dir`; `undefined` when the file
 * is missing or is not a `harness-bench.case` file.
 */
export function readCaseFile(dir: string, relative: string): CaseFile | undefined {
  try {
    const value = JSON.parse(readFileSync(path.join(dir, ...relative.split('/')), 'utf8')) as CaseFile;
    return value?.format === 'harness-bench.case' ? value : undefined;
  } catch {
    return undefined;
  }
}
