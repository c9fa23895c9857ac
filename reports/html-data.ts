/**
 * The data `report.html` embeds (as JSON in a `<script type="application/json">` tag): per case,
 * its status under each configuration with the failed checks, the reproducing command and the
 * first diverging step, the A/B decision diff, and per configuration a slim copy of the sidecar
 * (turns, calls, responses and the transcript, long texts cut) — not the requests or events, which
 * stay in `cases/`. The page renders a case's details from it only when the case is opened.
 */
import type { CaseResult, ResultsFile } from '../eval/results.ts';
import type { CaseFile } from './case-file.ts';
import { decisionRows, firstDivergingStep, type DecisionRow } from './decision-diff.ts';
import { failedCheckLines, reproduceCommand } from './summary.ts';

/** The cut of each text (message, result, model text) in the page, in characters. */
export const TEXT_LIMIT = 4000;

const cut = (text: string | null | undefined) =>
  text == null
    ? text
    : text.length > TEXT_LIMIT
      ? `${text.slice(0, TEXT_LIMIT)}… (${text.length - TEXT_LIMIT} more characters in the sidecar)`
      : text;

/** One turn of the timeline: the model's text, its calls with their verdicts and results. */
export interface TimelineTurn {
  turn: number;
  scope: string;
  wrapUp: boolean;
  ok: boolean;
  finishReason: string | null;
  tokens: string;
  text: string | null;
  error?: string;
  calls: {
    callId: string;
    tool: string;
    arguments: string;
    verdict: string;
    rule: string;
    reason: string;
    executed: boolean;
    ok: boolean;
    errorType?: string;
    result: string;
  }[];
}

/** One configuration's run of a case. */
export interface CaseUnder {
  status: CaseResult['status'];
  stopReason: string | null;
  stopDetail?: string;
  failed: string[];
  repro: string;
  /** Against the first configuration (see `decision-diff.ts`); absent under the first itself. */
  firstDiverging?: string;
  /** A recording's first request divergence against the recording. */
  recordingDivergence?: string;
  skip?: string;
  timeline?: TimelineTurn[];
  transcript?: { role: string; content: string; toolCalls?: string[]; toolCallId?: string }[];
  finalAnswer?: string | null;
  /** Whether the sidecar was found (`false`: written without `--out`, or removed). */
  hasSidecar: boolean;
}

/** One case across the configurations. */
export interface PageCase {
  id: string;
  kind: CaseResult['kind'];
  title?: string;
  file: string;
  under: Record<string, CaseUnder>;
  diff: DecisionRow[];
}

/** The whole embedded document. */
export interface PageData {
  configs: string[];
  cases: PageCase[];
}

/** Each message of a transcript as role, text, tool calls (`name(args)`) and the call it answers. */
function slimTranscript(file: CaseFile): NonNullable<CaseUnder['transcript']> {
  return (file.run?.transcript ?? []).map((m) => {
    const message = m as {
      role: string;
      content?: unknown;
      tool_calls?: { function?: { name?: string; arguments?: string } }[];
      tool_call_id?: string;
    };
    const content =
      typeof message.content === 'string'
        ? message.content
        : message.content == null
          ? ''
          : JSON.stringify(message.content);
    return {
      role: message.role,
      content: cut(content) ?? '',
      ...(message.tool_calls
        ? {
            toolCalls: message.tool_calls.map(
              (t) => cut(`${t.function?.name}(${t.function?.arguments ?? ''})`) ?? '',
            ),
          }
        : {}),
      ...(message.tool_call_id ? { toolCallId: message.tool_call_id } : {}),
    };
  });
}

/** The timeline of a sidecar: every turn (subagents' with their scope) and its calls. */
function timeline(file: CaseFile): TimelineTurn[] {
  const run = file.run;
  if (!run) return [];
  const key = (scope: readonly string[], turn: number) => `${scope.join('/')}#${turn}`;
  const texts = new Map(run.responses.map((r) => [key(r.scope, r.turn), r.content]));
  return run.ledger.turns.map((t) => ({
    turn: t.turn,
    scope: t.scope.join('/'),
    wrapUp: t.wrapUp,
    ok: t.ok,
    finishReason: t.finishReason,
    tokens: `${t.promptTokens}+${t.completionTokens}`,
    text: cut(texts.get(key(t.scope, t.turn)) ?? null) ?? null,
    ...(t.error ? { error: `${t.error.code}: ${t.error.message}` } : {}),
    calls: run.ledger.calls
      .filter((c) => c.turn === t.turn && c.scope.join('/') === t.scope.join('/'))
      .map((c) => ({
        callId: c.callId,
        tool: c.tool,
        arguments: cut(c.arguments) ?? '',
        verdict: c.verdict,
        rule: c.policy?.rule ?? '-',
        reason: c.policy?.reason ?? '',
        executed: c.executed,
        ok: c.ok,
        ...(c.errorType ? { errorType: c.errorType } : {}),
        result: cut(c.content) ?? '',
      })),
  }));
}

/**
 * The page data of a results file; `sidecar` returns a case's sidecar when there is one.
 * Cases keep the order of their first appearance; configurations the order of `results.configs`.
 */
export function pageData(results: ResultsFile, sidecar: (c: CaseResult) => CaseFile | undefined): PageData {
  const configs = results.configs.map((c) => c.name);
  for (const c of results.cases) if (!configs.includes(c.config)) configs.push(c.config);
  const reference = (results as { comparisons?: { reference?: string } }).comparisons?.reference;
  const byId = new Map<string, CaseResult[]>();
  for (const c of results.cases) byId.set(c.id, [...(byId.get(c.id) ?? []), c]);
  const cases: PageCase[] = [];
  for (const [id, list] of byId) {
    const files = new Map(list.map((c) => [c.config, sidecar(c)]));
    const diff = decisionRows(Object.fromEntries(configs.map((n) => [n, files.get(n)?.run?.ledger])));
    const stops = Object.fromEntries(list.map((c) => [c.config, c.stopReason]));
    const baseline =
      reference && files.get(reference)?.run ? reference : configs.find((n) => files.get(n)?.run);
    const under: Record<string, CaseUnder> = {};
    for (const c of list) {
      const file = files.get(c.config);
      const diverging =
        baseline && baseline !== c.config && file?.run
          ? firstDivergingStep(diff, baseline, c.config, stops)
          : undefined;
      const recording = c.findings?.firstDivergence;
      under[c.config] = {
        status: c.status,
        stopReason: c.stopReason,
        ...(c.stopDetail ? { stopDetail: c.stopDetail } : {}),
        failed: failedCheckLines(c),
        repro: reproduceCommand(results, c),
        ...(diverging ? { firstDiverging: diverging } : {}),
        ...(recording ? { recordingDivergence: recording } : {}),
        ...(c.skip ? { skip: `${c.skip.reason}; fix: ${c.skip.fix}` } : {}),
        ...(file?.run
          ? {
              timeline: timeline(file),
              transcript: slimTranscript(file),
              finalAnswer: cut(file.run.finalAnswer) ?? null,
            }
          : {}),
        hasSidecar: file !== undefined,
      };
    }
    const first = list[0]!;
    cases.push({
      id,
      kind: first.kind,
      ...(first.title ? { title: first.title } : {}),
      file: first.file,
      under,
      diff,
    });
  }
  return { configs, cases };
}

/**
 * JSON safe inside a `<script>` element: `<`, `>`, `&` and the line separators U+2028/U+2029
 * escaped as `\uXXXX`, so no text (a `</script>` in a transcript) can end the element early.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
