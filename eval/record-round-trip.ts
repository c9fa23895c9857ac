/**
 * The recorder's round trip in the main job (`docs/recording-format.md`, "Round trips"): a
 * scenario with a `roundTrip` block is run a second time as a live session would be, and what the
 * recorder makes of it is checked. The scenario's script is served over HTTP on 127.0.0.1 as a
 * provider (`eval/serve/server.ts`), the pass-through proxy records in front of it
 * (`eval/serve/passthrough.ts`, as `serve --upstream … --record` does), and our harness talks to
 * the proxy through the `openai` client with the planted API key, with the planted secret-named
 * variables in the recorder's environment. Then:
 * - `roundTrip.recorded`: the proxy made a cassette (it was not refused or empty), one exchange per
 *   model call of the live run;
 * - `roundTrip.redacted`: every planted value went through the proxy (so redaction was
 *   exercised: the key in each request's headers, a planted variable in the traffic) and none is
 *   left anywhere in the cassette;
 * - `roundTrip.replay`: the cassette replays against our harness, in a fresh copy of the
 *   scenario's workspace under the same configuration, with no divergence, every exchange used,
 *   and the live run's stop reason;
 * - `roundTrip.session`: the same session recorded by the `record` command's recorder replays
 *   strictly clean and holds no planted value (`sessionCheck`).
 * Every observed value is a count or a name, so results stay byte-identical.
 */
import { realpath } from 'node:fs/promises';
import type { HarnessConfig } from '../harness/config.ts';
import { deterministicDeps } from '../harness/deps.ts';
import type { RunResult } from '../harness/ledger.ts';
import { runHarness } from '../harness/loop/run.ts';
import { OpenAIModel } from '../harness/model/openai-model.ts';
import type { ToolDefinition } from '../harness/tools/types.ts';
import type { Cassette } from './cassette/types.ts';
import { makeCheck, notApplicableCheck, type Check } from './expect/check.ts';
import { redactValues } from './record/redact.ts';
import { SessionRecorder } from './record/session-recorder.ts';
import { runRecording } from './run-recording.ts';
import { scriptedApprover } from './scenario/approver.ts';
import type { LoadedScenario, RoundTripSpec } from './scenario/types.ts';
import { buildWorkspace } from './scenario/workspace.ts';
import { startPassthroughServer } from './serve/passthrough.ts';
import { startModelServer } from './serve/server.ts';
import { caseSandbox } from './unavailable-sandbox.ts';

/** The three checks' names, in the order they are added to the case. */
export const ROUND_TRIP_CHECKS = [
  'roundTrip.recorded',
  'roundTrip.redacted',
  'roundTrip.replay',
  'roundTrip.session',
] as const;

/** The key the proxy sends upstream (planted too: it must never be recorded). */
const UPSTREAM_KEY = 'sk-hb-upstream-0123456789abcdefROUNDTRIP';

/** The planted values of `spec`, by where they were planted (`apiKey`, `env.NAME`, `upstream key`). */
function plantedValues(spec: RoundTripSpec): [string, string][] {
  return [
    ['apiKey', spec.apiKey],
    ...Object.entries(spec.env ?? {}).map(([name, value]): [string, string] => [`env.${name}`, value]),
    ['upstream key', UPSTREAM_KEY],
  ];
}

/** What the upstream sent for one request, as the proxy received it. */
export interface Served {
  status: number;
  text: Promise<string>;
}

/** A fetch that keeps a copy of every upstream response's status and body text, in request order. */
function teeFetch(served: Served[]): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await globalThis.fetch(input, init);
    served.push({ status: response.status, text: response.clone().text() });
    return response;
  };
}

/** The `data` of each server-sent event of `text` (a blank line ends an event). Pure. */
export function eventData(text: string): string[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, '')),
    )
    .filter((lines) => lines.length > 0)
    .map((lines) => lines.join('\n'));
}

/**
 * The first exchange of `cassette` that is not what the upstream sent (`served`, redacted with
 * `planted` as the recorder redacts), as a phrase, or `undefined`: its status, its events' data in
 * order, or its JSON body. Headers are not compared (the recorder keeps an allowlist).
 */
export async function unfaithful(
  cassette: Pick<Cassette, 'exchanges'>,
  served: readonly Served[],
  planted: readonly string[],
): Promise<string | undefined> {
  if (cassette.exchanges.length !== served.length)
    return `${cassette.exchanges.length} exchanges recorded for ${served.length} responses`;
  for (const [i, exchange] of cassette.exchanges.entries()) {
    const sent = served[i]!;
    const text = redactValues(await sent.text, planted);
    const { response } = exchange;
    if (response.status !== sent.status)
      return `exchange ${i + 1}: status ${response.status}, served ${sent.status}`;
    const same = response.events
      ? JSON.stringify(response.events.map((e) => e.data)) === JSON.stringify(eventData(text))
      : JSON.stringify(response.body) === JSON.stringify(parseOr(text));
    if (!same)
      return `exchange ${i + 1}: ${response.events ? 'its events differ' : 'its body differs'} from what was served`;
  }
  return undefined;
}

/** The served body as JSON, else its text: the check's own reading, not the recorder's parser it checks. */
function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The live session through the recorder: the run and the cassette (or why there is none). */
async function recordLive(
  loaded: LoadedScenario,
  config: HarnessConfig,
  tools: ToolDefinition[],
  spec: RoundTripSpec,
): Promise<{ run: RunResult; cassette?: Cassette; refused?: string; seen: string; served: Served[] }> {
  const { scenario } = loaded;
  const built = await buildWorkspace(scenario);
  const upstream = await startModelServer({ scenario, model: config.model.name });
  const served: Served[] = [];
  const proxy = await startPassthroughServer({
    upstream: upstream.baseURL,
    fetch: teeFetch(served),
    apiKey: UPSTREAM_KEY,
    env: spec.env ?? {},
    now: () => 0,
    wallClock: () => 1_764_400_000_000,
  });
  try {
    const deps = deterministicDeps();
    deps.approver = scriptedApprover(scenario.approver, built.workspace);
    const model = new OpenAIModel({ baseURL: proxy.baseURL, apiKey: spec.apiKey, deps, backoffMs: 1 });
    const run = await runHarness({
      task: scenario.task,
      config,
      model,
      tools,
      sandbox: caseSandbox(config, built.workspace, false),
      workspace: built.workspace,
      deps,
    });
    // What went through the proxy before redaction, and what upstream was sent.
    const seen = JSON.stringify([proxy.exchanges, upstream.requests]);
    try {
      return { run, cassette: proxy.cassette({ id: scenario.id.replaceAll('/', '-') }), seen, served };
    } catch (error) {
      return { run, refused: (error as Error).message.split('\n')[0]!, seen, served };
    }
  } finally {
    await proxy.close();
    await upstream.close();
    await built.cleanup();
  }
}

/**
 * Where the replayed run differs from the live one, or `undefined`: the final answer, the
 * completion tokens (a stream recorded without its usage chunk) and tool calls, the transcript
 * message by message with the `planted` values redacted in the live one (the replay serves the
 * recorded tool results). Prompt tokens are not compared: a request counted from its redacted text
 * (`REDACTED` for a planted value) is shorter by design. Pure.
 */
function runDifference(live: RunResult, replayed: RunResult, planted: readonly string[]): string | undefined {
  if (live.finalAnswer !== replayed.finalAnswer) return 'another final answer';
  for (const key of ['completionTokens', 'toolCalls'] as const)
    if (live.usage[key] !== replayed.usage[key])
      return `${key} ${replayed.usage[key]}, live ${live.usage[key]}`;
  // The replay serves the recorded tool results, redacted: the live transcript, redacted alike.
  const messages = redactValues(live.messages, planted);
  const i = messages.findIndex(
    (message, n) => JSON.stringify(message) !== JSON.stringify(replayed.messages[n]),
  );
  if (i >= 0 || messages.length !== replayed.messages.length)
    return `message ${i >= 0 ? i : messages.length} of the transcript differs`;
  return undefined;
}

/**
 * The same session recorded by `harness-bench record` (`SessionRecorder`: the recorder's `fetch`
 * inside our `openai` client, with the decision ledger and the deps drawn), replayed strictly:
 * `roundTrip.session` passes when that cassette holds no planted value and its replay passes
 * (no divergence, the recorded ledger). Not applicable to a case with scripted tools (`record`
 * runs built-in tools only).
 */
async function sessionCheck(
  loaded: LoadedScenario,
  config: HarnessConfig,
  spec: RoundTripSpec,
  planted: readonly [string, string][],
): Promise<Check> {
  const { scenario } = loaded;
  if (Object.keys(scenario.fakeTools ?? {}).length > 0)
    return notApplicableCheck(
      ROUND_TRIP_CHECKS[3],
      'a clean strict replay',
      'the record command runs built-in tools only, and this case has scripted ones',
    );
  const built = await buildWorkspace(scenario);
  const upstream = await startModelServer({ scenario, model: config.model.name });
  try {
    const workspace = await realpath(built.workspace);
    const deps = deterministicDeps();
    deps.approver = scriptedApprover(scenario.approver, workspace);
    // The case's tools are the configuration's `tools` for the record command and its replay.
    const recorded = { ...config, tools: scenario.tools ?? config.tools };
    const session = new SessionRecorder({
      baseURL: upstream.baseURL,
      apiKey: spec.apiKey,
      model: config.model.name,
      config: recorded,
      workspace,
      deps,
      env: spec.env ?? {},
      eventClock: () => 0,
      stream: config.model.settings.stream === true,
      sandbox: caseSandbox(config, workspace, false),
    });
    await session.run(scenario.task);
    let cassette: Cassette;
    try {
      cassette = session.cassette({ id: scenario.id.replaceAll('/', '-') });
    } catch (error) {
      const why = (error as Error).message.split('\n')[0]!;
      return makeCheck(
        ROUND_TRIP_CHECKS[3],
        false,
        'a cassette',
        { refused: why },
        `record made no cassette: ${why}`,
      );
    }
    const text = JSON.stringify(cassette);
    const left = planted.filter(([, value]) => text.includes(value)).map(([where]) => where);
    const { result } = await runRecording(cassette, loaded.file, { name: 'round-trip', config: recorded });
    const pass = left.length === 0 && result.status === 'pass';
    return makeCheck(
      ROUND_TRIP_CHECKS[3],
      pass,
      { left: [], status: 'pass' },
      { left, status: result.status },
      left.length > 0
        ? `the record command's cassette still holds the planted ${left.join(', ')}`
        : pass
          ? `the record command's cassette (${cassette.exchanges.length} exchanges, the ledger) replays strictly clean`
          : `the strict replay of the record command's cassette ${result.firstFailure ?? `ended ${result.status}`}`,
    );
  } finally {
    await upstream.close();
    await built.cleanup();
  }
}

/**
 * The round-trip checks of `loaded` under `config` (the scenario's `config` already merged in)
 * with its `tools`, for `loaded.scenario.roundTrip` (see the module comment). Never throws for what the recorder
 * or the replay does (each becomes a failed check); rejects only for a runner fault (a port
 * that cannot be opened).
 */
export async function roundTripChecks(
  loaded: LoadedScenario,
  config: HarnessConfig,
  tools: ToolDefinition[],
): Promise<Check[]> {
  const spec = loaded.scenario.roundTrip;
  if (!spec) return [];
  const live = await recordLive(loaded, config, tools, spec);
  const planted = plantedValues(spec);
  const values = planted.map(([, value]) => value);
  const exchanges = live.cassette?.exchanges.length ?? 0;
  const calls = live.run.usage.modelCalls;
  const off = live.cassette ? await unfaithful(live.cassette, live.served, values) : undefined;
  const recorded = makeCheck(
    ROUND_TRIP_CHECKS[0],
    live.cassette !== undefined && exchanges === calls && off === undefined,
    { exchanges: calls, faithful: true },
    live.cassette ? { exchanges, faithful: off === undefined } : { refused: live.refused },
    !live.cassette
      ? `the proxy made no cassette: ${live.refused}`
      : (off ?? `${exchanges} exchanges recorded for ${calls} model calls, each as the upstream sent it`),
  );
  if (!live.cassette) return [recorded];
  const text = JSON.stringify(live.cassette);
  // The key goes in the request headers, never in a body: the proxy saw it if it relayed anything.
  const unexercised = planted
    .filter(([where, value]) => where.startsWith('env.') && !live.seen.includes(value))
    .map(([where]) => where);
  const left = planted.filter(([, value]) => text.includes(value)).map(([where]) => where);
  const redacted = makeCheck(
    ROUND_TRIP_CHECKS[1],
    left.length === 0 && unexercised.length === 0,
    { left: [], unexercised: [] },
    { left, unexercised },
    left.length > 0
      ? `the cassette still holds the planted ${left.join(', ')}`
      : unexercised.length > 0
        ? `the planted ${unexercised.join(', ')} never went through the proxy, so its redaction was not exercised`
        : `every planted value (${planted.map(([where]) => where).join(', ')}) redacted`,
  );
  const workspace = await buildWorkspace(loaded.scenario);
  try {
    const replay = await runRecording(
      live.cassette,
      loaded.file,
      { name: 'round-trip', config },
      {
        workspace: workspace.workspace,
      },
    );
    const { result } = replay;
    const unused = replay.imported?.model.unusedExchanges().length ?? 0;
    const stop = replay.run?.stopReason ?? null;
    const differs = replay.run ? runDifference(live.run, replay.run, values) : 'no run';
    const pass =
      result.status === 'pass' &&
      result.divergences.length === 0 &&
      unused === 0 &&
      stop === live.run.stopReason &&
      differs === undefined;
    const why =
      result.status !== 'pass'
        ? `the replay of the recording ${result.firstFailure ?? `ended ${result.status}`}`
        : result.divergences[0]
          ? `the replay diverged: ${JSON.stringify(result.divergences[0]).slice(0, 200)}`
          : unused > 0
            ? `${unused} recorded exchanges were never asked for`
            : `the replayed run is not the live one: ${differs ?? `stop reason ${stop}`}`;
    return [
      recorded,
      redacted,
      makeCheck(
        ROUND_TRIP_CHECKS[2],
        pass,
        { status: 'pass', divergences: 0, unused: 0, stopReason: live.run.stopReason, sameRun: true },
        {
          status: result.status,
          divergences: result.divergences.length,
          unused,
          stopReason: stop,
          sameRun: differs === undefined,
        },
        pass
          ? `replayed clean: ${exchanges} exchanges, stop reason ${stop}, the live run's transcript and usage`
          : why,
      ),
      await sessionCheck(loaded, config, spec, planted),
    ];
  } finally {
    await workspace.cleanup();
  }
}
