/**
 * A recorded session: the live model (`OpenAIModel` with the recorder's `fetch`), recording deps,
 * one or more runs of the harness (a chat continues the conversation run after run), and the
 * cassette built from all of it (`docs/recording-format.md`): exchanges, the deps
 * drawn, the merged decision ledger, and the metadata. Secrets are redacted, then the finished
 * cassette is scanned for key shapes and refused when any remain.
 */
import { HarnessBenchError } from '../../harness/errors.ts';
import type { HarnessConfig } from '../../harness/config.ts';
import { liveDeps, type HarnessDeps } from '../../harness/deps.ts';
import type { RunResult } from '../../harness/ledger.ts';
import { runHarness } from '../../harness/loop/run.ts';
import { OpenAIModel } from '../../harness/model/openai-model.ts';
import type { ChatMessage } from '../../harness/model/types.ts';
import type { Sandbox } from '../../harness/sandbox/types.ts';
import { createSandbox } from '../../harness/sandbox/factory.ts';
import { builtinTools } from '../../harness/tools/builtin/index.ts';
import { canonicalJson, sha256Hex } from '../cassette/canonical.ts';
import { validateCassette } from '../cassette/load.ts';
import { scanForSecrets, type SecretFinding } from '../cassette/secret-scan.ts';
import { CASSETTE_FORMAT, CASSETTE_VERSION, type Cassette, type Exchange } from '../cassette/types.ts';
import { eventPayloads } from '../import/common.ts';
import { mergeLedgers } from '../replay/ledger-diff.ts';
import { CassetteRecorder } from './recorder.ts';
import { freshSeeds, recordingDeps, type RecordingDeps } from './recording-deps.ts';
import { redactValues, replaceInStrings, secretValuesFromEnv, WORKSPACE_PLACEHOLDER } from './redact.ts';
import {
  FIXTURE_LIMITS,
  snapshotWorkspace,
  type FixtureLimits,
  type FixtureResult,
} from './workspace-fixture.ts';

/**
 * `record` refuses to write: the finished cassette still holds something shaped like a secret
 * (`RECORD_REFUSED`, fault `user_input`: the recorded workspace or session holds it; data: the findings).
 */
export class RecordRefusedError extends HarnessBenchError {
  override readonly name = 'RecordRefusedError';
  constructor(readonly findings: SecretFinding[]) {
    const lines = findings.map((f) => `  ${f.path}: ${f.kind} ${f.excerpt}`).join('\n');
    super(
      'RECORD_REFUSED',
      'user_input',
      `the cassette still holds what looks like a secret after redaction:\n${lines}`,
      findings,
    );
  }
}

/** Options of {@link SessionRecorder}. */
export interface SessionRecorderOptions {
  /** Base URL of the OpenAI-compatible endpoint, e.g. `http://127.0.0.1:1234/v1`. */
  baseURL: string;
  apiKey: string;
  /** The model name sent in every request. */
  model: string;
  /** The harness configuration (its `model.name` is replaced by `model`). */
  config: HarnessConfig;
  /** Absolute real path of the workspace the tools work in. */
  workspace: string;
  /** Clock, sleep, approver and event sink of the session. @default liveDeps() */
  deps?: HarnessDeps;
  /** The fetch that reaches the server. @default globalThis.fetch */
  fetch?: typeof globalThis.fetch;
  /** Clock for SSE event delays, in ms. @default performance.now */
  eventClock?: () => number;
  /**
   * Stream responses (`stream: true` with usage in the last chunk). @default the configuration's
   * `model.settings.stream`, else true
   */
  stream?: boolean;
  /** Environment whose secret-named variables are redacted wherever they appear. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** The sandbox. @default the one the configuration asks for (`createSandbox(config.sandbox.kind)`) */
  sandbox?: Sandbox;
  /** Attempts per model call (first included). @default 4 */
  maxAttempts?: number;
  fixtureLimits?: FixtureLimits;
}

/** What a cassette needs beyond the session itself. */
export interface CassetteInfo {
  id: string;
  title?: string;
  description?: string;
}

/** One live session being recorded. Call {@link SessionRecorder.start} first, then `run` once or more. */
export class SessionRecorder {
  readonly recorder: CassetteRecorder;
  readonly config: HarnessConfig;
  readonly runs: RunResult[] = [];
  /** Shapes approved during the session (shared by its runs). */
  readonly grants: string[] = [];
  private readonly recording: RecordingDeps;
  private readonly model: OpenAIModel;
  /** The sandbox the tools run in. */
  readonly sandbox: Sandbox;
  private fixture: FixtureResult | undefined;
  private startedAt: string | undefined;
  private firstTask: string | undefined;
  /** The session's own clock, read without recording (start time, `recordedAt`). */
  private readonly baseNow: () => number;

  constructor(private readonly options: SessionRecorderOptions) {
    const base = options.deps ?? liveDeps();
    this.recorder = new CassetteRecorder({
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.eventClock ? { now: options.eventClock } : {}),
    });
    this.recording = recordingDeps(base, freshSeeds());
    const configured = options.config.model.settings.stream;
    const stream = options.stream ?? (typeof configured === 'boolean' ? configured : true);
    const settings: Record<string, unknown> = { ...options.config.model.settings, stream };
    if (stream) settings.stream_options ??= { include_usage: true };
    else delete settings.stream_options;
    this.config = { ...options.config, model: { name: options.model, settings } };
    this.model = new OpenAIModel({
      baseURL: options.baseURL,
      apiKey: options.apiKey,
      fetch: this.recorder.fetch,
      deps: this.recording.deps,
      ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
    });
    this.sandbox = options.sandbox ?? createSandbox(this.config.sandbox.kind, options.workspace);
    this.baseNow = () => base.now();
  }

  /** The deps the runs use (recording wrappers over the session's deps). */
  get deps(): HarnessDeps {
    return this.recording.deps;
  }

  /** Takes the workspace fixture (before anything runs) and the start time. Idempotent. */
  async start(): Promise<FixtureResult> {
    this.startedAt ??= new Date(this.baseNow()).toISOString();
    this.fixture ??= await snapshotWorkspace(
      this.options.workspace,
      this.options.fixtureLimits ?? FIXTURE_LIMITS,
    );
    return this.fixture;
  }

  /**
   * Runs the harness once: on `task` alone, or continuing a conversation (`history`, the
   * transcript so far, followed by `task` as a new user message).
   */
  async run(
    task: string,
    options: { history?: ChatMessage[]; signal?: AbortSignal } = {},
  ): Promise<RunResult> {
    await this.start();
    this.firstTask ??= task;
    const history = options.history ?? [];
    const run = await runHarness({
      task,
      config: this.config,
      model: this.model,
      tools: builtinTools(this.config.tools),
      sandbox: this.sandbox,
      workspace: this.options.workspace,
      deps: this.recording.deps,
      grants: this.grants,
      ...(history.length > 0
        ? { initialMessages: [...history, { role: 'user' as const, content: task }] }
        : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    this.runs.push(run);
    return run;
  }

  /**
   * The cassette of the session so far: redacted (the API key and secret-named environment
   * values replaced everywhere, the workspace's absolute path replaced by `$WORKSPACE`),
   * validated, and scanned.
   * @throws RecordRefusedError when a key shape remains; Error when the cassette does not
   *   match the schema (a bug).
   */
  cassette(info: CassetteInfo): Cassette {
    const exchanges = this.recorder.exchanges();
    const firstBody = exchanges[0]?.request.body ?? null;
    const task = this.firstTask ?? null;
    const fixture = this.fixture?.ok ? { workspace: { files: this.fixture.files } } : {};
    const raw: Cassette = {
      format: CASSETTE_FORMAT,
      version: CASSETTE_VERSION,
      meta: {
        id: info.id,
        title: info.title ?? `recorded: ${(task ?? '').replace(/\s+/g, ' ').slice(0, 72)}`,
        recordedAt: this.startedAt ?? new Date(this.baseNow()).toISOString(),
        host: this.recorder.host ?? safeHost(this.options.baseURL),
        modelRequested: this.options.model,
        modelServed: modelServed(exchanges),
        task,
        config: structuredClone(this.config) as unknown as Record<string, unknown>,
        toolSchemasHash: sha256Hex(canonicalJson(firstBody?.tools ?? [])),
        ...fixture,
        responseOnly: false,
        ...(info.description ? { description: info.description } : {}),
      },
      deps: this.recording.drawn(),
      exchanges,
      ledger: mergeLedgers(
        this.runs.length > 0 ? this.runs.map((r) => r.ledger) : [{ turns: [], calls: [], stopReason: null }],
      ),
    };
    const secrets = [this.options.apiKey, ...secretValuesFromEnv(this.options.env ?? process.env)];
    const cassette = redactValues(
      replaceInStrings(raw, [[this.options.workspace, WORKSPACE_PLACEHOLDER]]),
      secrets,
    );
    const findings = scanForSecrets(cassette);
    if (findings.length > 0) throw new RecordRefusedError(findings);
    const problems = validateCassette(cassette, info.id);
    if (problems.length > 0)
      throw new Error(
        `the recorded cassette does not match the schema (a bug): ${problems.map((p) => `${p.path}: ${p.reason}`).join('; ')}`,
      );
    return cassette;
  }
}

function safeHost(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/** `model` of the first response that names one. */
function modelServed(exchanges: readonly Exchange[]): string | null {
  for (const { response } of exchanges) {
    const objects = response.events
      ? eventPayloads(response.events)
      : typeof response.body === 'object' && response.body !== null
        ? [response.body as Record<string, unknown>]
        : [];
    for (const object of objects)
      if (typeof object.model === 'string' && object.model !== '') return object.model;
  }
  return null;
}
