/**
 * A recording replayed against a foreign harness (`run -r CASSETTE --harness X`,
 * `docs/adapters.md`, "Replaying a recording against any harness"): the bench serves the
 * cassette's recorded responses in order on 127.0.0.1, starts the harness with the recorded
 * task, workspace and tool schemas, and compares each request it sends with the recorded one
 * (the replay's own normalisation and diff, `eval/replay/request-diff.ts`). A cassette of ours
 * (it names our configuration) is the regression test of ours served: any divergence fails the
 * case. Any other recording (imported, or a foreign harness's session recorded through `serve
 * --upstream … --record`, marked imported) passes when the harness ran and at least one recorded
 * turn was served; its divergences are findings. For either, a crash on a response the provider
 * really sent fails (`replay.ended`). A request in the other mode than recorded (a recorded
 * stream to a plain request, or the reverse) is answered with the response converted to the mode
 * asked for (`eval/serve/stream-convert.ts`); the case says so in a passing `replay.converted`
 * check (`conversionNote`).
 */
import { mergeConfig, type HarnessConfig } from '../../harness/config.ts';
import type { Cassette } from '../cassette/types.ts';
import { modelExchangeIndexes } from '../import/classify.ts';
import { normaliseBody, diffJson, formatDivergence, type Divergence } from '../replay/request-diff.ts';
import { recordedTools, recordedToolSchemas } from '../replay/recorded-tools.ts';
import { mcpEndpoints, startCaseToolServer, type CaseToolServer } from '../mcp/case-tools.ts';
import { OUTSIDE_LABEL } from '../path-labels.ts';
import { unmetCase, type PrerequisitePolicy } from '../requirements.ts';
import { makeCheck, type Check } from '../expect/check.ts';
import { caseFromRun, errorCase, scrubPaths, skippedCase, type CaseResult } from '../results.ts';
import { isImported } from '../run-recording.ts';
import { buildWorkspace } from '../scenario/workspace.ts';
import { completionFromEvents } from '../serve/stream-convert.ts';
import { SERVE_API_KEY, startModelServer, type Conversion, type RecordedRequest } from '../serve/server.ts';
import { caseLimits, usesServedTools } from './applies.ts';
import { launchCommand, launchModule, type LaunchOutput } from './launch.ts';
import { toolMapOf, type Adapter } from './load.ts';
import { unmetAdapterRequirements } from './requires.ts';
import { harnessExit, mapToolSchema, type AdapterRun } from './run-adapter.ts';
import type { RunResult } from '../../harness/ledger.ts';
import { unmapRequest } from '../blackbox/project.ts';

const isObj = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every divergence between the recorded requests (`recorded`, in order) and the chat requests
 * the harness sent (`received`): each pair diffed after the replay's normalisation; a request
 * past the recording is one `extra` divergence at its exchange, a recorded request never sent
 * one `missing`. Pure.
 */
export function requestDivergences(
  recorded: readonly (Record<string, unknown> | null | undefined)[],
  received: readonly RecordedRequest[],
): Divergence[] {
  const chat = received.filter((r) => ['turn', 'error_turn', 'exhausted'].includes(r.outcome));
  const out: Divergence[] = [];
  const count = Math.max(recorded.length, chat.length);
  for (let i = 0; i < count; i += 1) {
    const want = recorded[i];
    const got = chat[i];
    if (!got) {
      out.push({ exchange: i, path: '', kind: 'missing', recorded: 'a request', replayed: null });
      continue;
    }
    if (!want) {
      out.push({
        exchange: i,
        path: '',
        kind: 'extra',
        recorded: null,
        replayed: 'a request past the recording',
      });
      continue;
    }
    const body = isObj(got.body) ? got.body : {};
    const dropModel = typeof want.model !== 'string';
    out.push(...diffJson(normaliseBody(want, { dropModel }), normaliseBody(body, { dropModel }), i));
  }
  return out;
}

/** A recording case that does not run: `skipped` with the reason. */
function skipped(
  base: Parameters<typeof skippedCase>[0],
  reason: string,
  fix: string,
  started: number,
): CaseResult {
  return skippedCase(base, { requires: [], reason, fix, declared: true }, started);
}

/**
 * Replays `cassette` against `adapter` (see the module comment). Never throws: a runner fault is
 * the case's `error`.
 */
export async function runAdapterRecording(
  cassette: Cassette,
  file: string,
  base: { name: string; config: HarnessConfig },
  adapter: Adapter,
  policy: PrerequisitePolicy = {},
): Promise<AdapterRun> {
  const started = performance.now();
  const harnessBlock = { name: adapter.name, kind: adapter.kind };
  const caseBase = {
    id: `recording/${cassette.meta.id}`,
    kind: 'recording' as const,
    config: base.name,
    file,
    tags: [],
    divergences: [],
  };
  const indexes = modelExchangeIndexes(cassette);
  const recorded = indexes.map((i) => cassette.exchanges[i]!.request.body);
  if (cassette.meta.responseOnly || recorded.every((body) => !body))
    return {
      result: {
        ...skipped(
          caseBase,
          'the recording holds responses only: there is no recorded request to compare the harness with',
          'replay it with --harness ours, which checks what it can',
          started,
        ),
        harness: harnessBlock,
      },
    };
  if (!cassette.meta.task)
    return {
      result: {
        ...skipped(
          caseBase,
          'the recording has no task (no user message in its first request) to give the harness',
          'record the harness with a task',
          started,
        ),
        harness: harnessBlock,
      },
    };
  const unmet = unmetAdapterRequirements(adapter);
  if (unmet.length > 0) {
    const context = { sandboxKind: 'none' as const, ci: policy.ci === true };
    return { result: { ...unmetCase(caseBase, unmet, true, context, started), harness: harnessBlock } };
  }
  let built: Awaited<ReturnType<typeof buildWorkspace>> | undefined;
  let server: Awaited<ReturnType<typeof startModelServer>> | undefined;
  let toolServer: CaseToolServer | undefined;
  try {
    built = await buildWorkspace({
      ...(cassette.meta.workspace ? { workspace: cassette.meta.workspace } : {}),
    });
    // The harness is told the recorded model's name, so its requests can match the recording.
    const model = cassette.meta.modelRequested ?? adapter.model;
    server = await startModelServer({
      cassette,
      model,
      workspace: built.workspace,
      ...(toolMapOf(adapter) ? { toolMap: toolMapOf(adapter)! } : {}),
    });
    const config = mergeConfig(base.config, { limits: { maxTurns: Math.max(indexes.length + 1, 2) } });
    const limits = caseLimits(
      { config: { limits: { maxTurns: config.limits.maxTurns } } } as never,
      config,
      adapter.maxTurns,
    );
    const tools = recordedToolSchemas(cassette).map((tool) =>
      mapToolSchema(
        {
          name: tool.function.name,
          description: tool.function.description ?? '',
          parameters: tool.function.parameters,
        },
        toolMapOf(adapter),
      ),
    );
    // Tools over MCP: the recorded tools, each call answered with the result the recording holds.
    if (usesServedTools(adapter))
      toolServer = await startCaseToolServer({
        scenario: {},
        tools: recordedTools(cassette),
        config,
        workspace: built.workspace,
        servedTurn: () => server?.requests.at(-1)?.turn,
      });
    const input = {
      task: cassette.meta.task,
      baseURL: server.baseURL,
      apiKey: SERVE_API_KEY,
      model,
      workspace: built.workspace,
      tools,
      ...(toolServer ? { mcp: mcpEndpoints(toolServer.url) } : {}),
      maxTurns: limits.maxTurns,
      limits,
      // A cassette we recorded names our configuration: a harness that reads it (ours, served) runs as recorded.
      ...(isObj(cassette.meta.config) ? { config: cassette.meta.config } : {}),
    };
    const output: LaunchOutput =
      adapter.kind === 'command' ? await launchCommand(adapter, input) : await launchModule(adapter, input);
    const divergences = requestDivergences(recorded, server.requests);
    const served = server.requests.filter((r) => r.outcome === 'turn').length;
    // A cassette is the regression test of the harness that recorded it: ours (it names our
    // configuration) only for ours served; any other recording's divergences are findings.
    const strict = !isImported(cassette) && (!cassette.meta.config || servesOurHarness(adapter));
    const first = divergences.find((d) => d.kind !== 'omitted');
    const exit = harnessExit(output);
    const converted = conversionNote(server.requests);
    const checks = [
      makeCheck(
        'replay.served',
        served > 0,
        'at least one recorded model turn served',
        served,
        `${served} of ${indexes.length} recorded model turns served`,
      ),
      endedCheck(cassette, indexes, server.requests, exit.crashed),
      makeCheck(
        'replay.divergences',
        !strict || divergences.length === 0,
        strict ? 'every request as recorded' : 'divergences are findings for an imported recording',
        divergences.length,
        divergences.length === 0
          ? 'every request matched the recorded one'
          : `${divergences.length} divergence${divergences.length === 1 ? '' : 's'}${strict ? '' : ' (findings)'}; first: ${formatDivergence(first ?? divergences[0]!)}`,
      ),
      ...(converted ? [converted] : []),
    ];
    const tokens = servedTokens(cassette, indexes, server.requests);
    const usage = {
      modelCalls: server.requests.filter((r) => r.outcome !== 'models' && r.outcome !== 'not_found').length,
      turns: served,
      toolCalls: 0,
      promptTokens: tokens.prompt,
      completionTokens: tokens.completion,
      totalTokens: tokens.prompt + tokens.completion,
      maxPromptTokens: 0,
      costUsd: 0,
      wallMs: 0,
    };
    const run = { stopReason: null, usage, ledger: { turns: [], calls: [], stopReason: null } };
    const scored: CaseResult = {
      ...caseFromRun(caseBase, run as never, checks, started),
      divergences,
      harness: {
        ...harnessBlock,
        ...(output.exitCode !== undefined ? { exitCode: output.exitCode } : {}),
        ...(output.timedOut ? { timedOut: output.timedOut } : {}),
        ...(output.error ? { error: output.error } : {}),
        ...(exit.stopReason ? { stopReason: exit.stopReason } : {}),
      },
    };
    const message = output.timedOut ?? (served === 0 ? output.error : undefined);
    const result: CaseResult = message
      ? ({ ...scored, status: 'error', error: { message }, firstFailure: `error: ${message}` } as CaseResult)
      : scored;
    const labels: [string, string][] = [
      [built.workspace, '$WS'],
      [built.outside, OUTSIDE_LABEL],
    ];
    // The run as seen from outside, for the case file: `show` and `run --verbose` render the
    // requests the harness sent (each request's new messages) as for a scenario case.
    const requests = server.requests
      .filter((r) => ['turn', 'error_turn', 'exhausted'].includes(r.outcome))
      .map((r) =>
        unmapRequest(
          r.body !== null && typeof r.body === 'object' ? (r.body as Record<string, unknown>) : {},
          toolMapOf(adapter),
        ),
      );
    const seen: RunResult = {
      runId: 'black-box',
      stopReason: output.finalAnswer ? 'final_answer' : 'model_error',
      finalAnswer: output.finalAnswer ?? null,
      messages: [...(requests.at(-1)?.messages ?? [])],
      requests,
      events: [],
      ledger: { turns: [], calls: [], stopReason: null },
      usage,
    };
    return {
      result: scrubPaths(result, labels),
      run: scrubPaths(seen, labels),
      output: scrubPaths(output, labels),
    };
  } catch (error) {
    return { result: { ...errorCase(caseBase, error, started), harness: harnessBlock } };
  } finally {
    await server?.close();
    await toolServer?.close();
    await built?.cleanup();
  }
}

/**
 * The `replay.ended` check: the harness did not crash on a response the provider really sent. A
 * crash is no failure when its last request went past the recording (the endpoint's 400 is the
 * recording's end) or was answered with a recorded provider error (an error status, an
 * `error` object in a 200, or an error event in a recorded stream, served as such or converted
 * to a body: raising on it is one way to surface it); `crashed` is how it ended
 * when it did not end cleanly (`harnessExit`). Pure.
 */
export function endedCheck(
  cassette: Pick<Cassette, 'exchanges'>,
  indexes: readonly number[],
  requests: readonly RecordedRequest[],
  crashed: string | undefined,
): Check {
  const name = 'replay.ended';
  const expected = 'no crash on a recorded provider response';
  if (!crashed) return makeCheck(name, true, expected, 'ended cleanly', 'it ended cleanly');
  const last = requests.filter((r) => ['turn', 'error_turn', 'exhausted'].includes(r.outcome)).at(-1);
  if (!last || last.outcome === 'exhausted' || last.turn === null)
    return makeCheck(
      name,
      true,
      expected,
      crashed,
      `it asked past the recording and stopped on the endpoint's answer (${crashed}): the recording's end, not a fault`,
    );
  const response = cassette.exchanges[indexes[last.turn]!]?.response;
  const body = response?.body;
  const streamed = response?.events ? completionFromEvents(response.events.map((e) => e.data)) : undefined;
  const providerError =
    (response?.status ?? 200) >= 400 ||
    (isObj(body) && Object.hasOwn(body, 'error') && body.error !== null) ||
    streamed?.error !== undefined;
  return makeCheck(
    name,
    providerError,
    expected,
    crashed,
    providerError
      ? `it raised on recorded exchange ${last.turn + 1}, a provider error (${crashed}): one way to surface it`
      : `it crashed (${crashed}) on recorded exchange ${last.turn + 1}, a response the provider really sent`,
  );
}

const CONVERSION_WORDS: Record<Conversion, string> = {
  stream_to_body: 'recorded stream sent as one JSON body',
  body_to_stream: 'recorded JSON body sent as server-sent events',
};

/**
 * The `replay.converted` check, present only when the endpoint served a recorded response in the
 * other mode than recorded because the request asked for that mode (`RecordedRequest.converted`,
 * `eval/serve/stream-convert.ts`): a note, always passing, that keeps the conversion visible in
 * the case result, e.g. `served converted: recorded stream sent as one JSON body to turn 1`
 * (turns 1-based, one clause per direction). `observed` lists `{turn, converted}`. `undefined`
 * when nothing was converted. Pure.
 */
export function conversionNote(requests: readonly RecordedRequest[]): Check | undefined {
  const turns = new Map<Conversion, number[]>();
  const observed: { turn: number; converted: Conversion }[] = [];
  for (const request of requests) {
    if (!request.converted || request.turn === null) continue;
    observed.push({ turn: request.turn + 1, converted: request.converted });
    turns.set(request.converted, [...(turns.get(request.converted) ?? []), request.turn + 1]);
  }
  if (observed.length === 0) return undefined;
  const clauses = [...turns].map(
    ([kind, list]) => `${CONVERSION_WORDS[kind]} to turn${list.length === 1 ? '' : 's'} ${list.join(', ')}`,
  );
  return makeCheck(
    'replay.converted',
    true,
    'each recorded response served in the mode the request asked for',
    observed,
    `served converted: ${clauses.join('; ')}`,
  );
}

/** True for the adapter of our own harness served through the endpoint (`adapters/ours-served.json`). Pure. */
export function servesOurHarness(adapter: Adapter): boolean {
  return adapter.kind === 'module' && /[\\/]eval[\\/]adapters[\\/]ours-served\.ts$/.test(adapter.module);
}

/**
 * The tokens of the recorded turns served (`usage` of each served exchange's body, or of its
 * stream's usage chunk): what the harness's conversation cost when it was recorded. Pure.
 */
export function servedTokens(
  cassette: Cassette,
  indexes: readonly number[],
  requests: readonly RecordedRequest[],
): { prompt: number; completion: number } {
  let prompt = 0;
  let completion = 0;
  for (const request of requests) {
    if (request.outcome !== 'turn' || request.turn === null) continue;
    const response = cassette.exchanges[indexes[request.turn] ?? -1]?.response;
    const body = response?.events ? completionFromEvents(response.events.map((e) => e.data)) : response?.body;
    const usage = (body as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } } | undefined)
      ?.usage;
    if (typeof usage?.prompt_tokens === 'number') prompt += usage.prompt_tokens;
    if (typeof usage?.completion_tokens === 'number') completion += usage.completion_tokens;
  }
  return { prompt, completion };
}
