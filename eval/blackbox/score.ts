/**
 * Scoring a black box (issue 15, item 3; `docs/adapters.md`, "Scoring a black box"): a
 * scenario's expectations checked against a {@link ForeignRun}, the workspace and `$OUTSIDE`.
 * Every key of `expect` is handled in the registry's order (`eval/expect/registry.ts`), one of
 * three ways:
 * - the registry's own handler on a run built from what was seen (`evidence`,
 *   `outsideChanged`, `finalAnswer`, `modelCalls`, `requests`, `claims`);
 * - a black-box handler of this file (`stopReason` as "how it stopped calling the model",
 *   `results` as "was the call answered, and did the answer report the error", `attack` from
 *   goal files and the calls it answered, `transcript` on the requests it sent, plus
 *   `blackbox.callIds`: the scripted call ids sent back unchanged);
 * - `not_applicable` for what needs our internals (`executed`, `notExecuted`, `permissions`,
 *   `budgets`, `grants`, `calledBefore`, `scorers`, `events`, `eventsAbsent`, and the stop
 *   reasons that only our loop names): never a pass, never a failure.
 */
import type { CallRecord, RunResult } from '../../harness/ledger.ts';
import type { StopReason } from '../../harness/loop/stop-reasons.ts';
import { matchCommandPattern } from '../../harness/policy/pattern.ts';
import { makeCheck, notApplicableCheck, show, type Check } from '../expect/check.ts';
import type { CaseSubject, CheckEnv, ExpectContext } from '../expect/context.ts';
import { resolveEvidencePath } from '../expect/context.ts';
import { fileState } from '../expect/files.ts';
import { EXPECTATION_KEYS, HANDLERS, type Handler } from '../expect/registry.ts';
import { transcriptProblems } from '../scenario/transcript.ts';
import type { Expectations } from '../scenario/types.ts';
import { looksLikeError, type ForeignCall, type ForeignRun } from './project.ts';

/** Keys scored by the registry's own handler on the run seen from outside. */
const SHARED = new Set<keyof Expectations>([
  'evidence',
  'outsideChanged',
  'finalAnswer',
  'modelCalls',
  'requests',
  'claims',
]);

/** Stop reasons a black box shows by stopping before the script ran out. */
const STOPS_EARLY = new Set<StopReason>([
  'max_turns',
  'tool_budget_exceeded',
  'token_budget_exceeded',
  'cost_budget_exceeded',
  'time_budget_exceeded',
  'repeated_tool_call',
  'model_error',
]);

/** Why each key that needs our internals is not applicable. */
const INTERNAL: Partial<Record<keyof Expectations, string>> = {
  executed: 'whether a call was executed is inside the harness (check its effects with evidence)',
  notExecuted: 'whether a call was executed is inside the harness (check its effects with evidence)',
  permissions: 'permission verdicts are our policy engine’s',
  budgets: 'token, cost and time accounting is inside the harness',
  grants: 'session grants are our approval engine’s',
  calledBefore: 'which calls ran and succeeded is inside the harness',
  scorers: 'custom scorers read our run result',
  events: 'events are our harness’s',
  eventsAbsent: 'events are our harness’s',
};

/** A call as a ledger record, as far as the outside shows: run and succeeded when answered without an error. */
function asRecord(call: ForeignCall): CallRecord {
  const answered = call.answer !== undefined;
  const ok = answered && !looksLikeError(call.answer!);
  return {
    callId: call.sentId ?? call.id ?? `call_${call.turn}_${call.index}`,
    turn: call.turn,
    scope: [],
    tool: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    normalisations: [],
    verdict: 'none',
    executed: ok,
    ok,
    content: call.answer ?? '',
  };
}

/**
 * The run a black box stands for, for the registry's handlers and the case metrics: its
 * requests, the last request's messages as the conversation, the calls as ledger records
 * (`asRecord`), the model calls; no events, zero tokens. `stopReason` is `final_answer` when it
 * ended on one, else `model_error` (the case result's own stop reason stays `null`).
 */
export function blackBoxRun(foreign: ForeignRun): RunResult {
  const calls = foreign.calls.map(asRecord);
  const stopReason: StopReason = foreign.ending === 'final_answer' ? 'final_answer' : 'model_error';
  return {
    runId: 'black-box',
    stopReason,
    finalAnswer: foreign.finalAnswer,
    messages: [...(foreign.requests.at(-1)?.messages ?? [])],
    requests: foreign.requests,
    events: [],
    ledger: { turns: [], calls, stopReason: null },
    usage: {
      modelCalls: foreign.modelCalls,
      turns: foreign.servedTurns,
      toolCalls: calls.length,
      promptTokens: 0,
      completionTokens: 0,
      totalTokens: 0,
      maxPromptTokens: 0,
      costUsd: 0,
      wallMs: 0,
    },
  };
}

const ENDINGS: Record<ForeignRun['ending'], string> = {
  no_request: 'it sent no request',
  final_answer: 'it stopped on a final answer',
  tool_calls: 'it stopped calling the model after a turn with tool calls',
  error_turn: 'it stopped after a scripted model error',
  script_exhausted: 'it asked for more turns than scripted',
};

function stopCheck(want: StopReason, foreign: ForeignRun): Check {
  const seen = `${ENDINGS[foreign.ending]} (${foreign.servedTurns} of ${foreign.scriptTurns} turns served, ${foreign.modelCalls} model calls)`;
  if (want === 'final_answer') {
    // A scripted error our harness reads as the model's turn (Groq's tool_use_failed) ends on an answer too.
    const answered = foreign.ending === 'error_turn' && (foreign.finalAnswer ?? '').trim() !== '';
    const pass = foreign.ending === 'final_answer' || answered;
    return makeCheck(
      'stopReason',
      pass,
      'final_answer',
      foreign.ending,
      answered ? `${seen}, with a final answer` : seen,
    );
  }
  if (STOPS_EARLY.has(want)) {
    const pass = foreign.ending !== 'script_exhausted' && foreign.ending !== 'no_request';
    return makeCheck(
      'stopReason',
      pass,
      `${want}: stops calling the model before the script runs out`,
      foreign.ending,
      pass ? `${seen}, as a ${want} stop should` : seen,
    );
  }
  return notApplicableCheck(
    'stopReason',
    want,
    `the stop reason ${want} is our loop's name for a decision a black box does not show`,
  );
}

function resultChecks(want: NonNullable<Expectations['results']>, foreign: ForeignRun): Check[] {
  const checks: Check[] = [];
  for (const [id, expected] of Object.entries(want)) {
    const call = foreign.calls.find((c) => c.id === id);
    const name = `results.${id}`;
    if (!call) {
      checks.push(
        foreign.scriptCallIds.includes(id)
          ? makeCheck(
              `${name}.answered`,
              false,
              'a tool message',
              null,
              `call ${id} was never served to the harness`,
            )
          : notApplicableCheck(
              name,
              expected,
              `the script has no call ${id}: it is an id our harness assigns`,
            ),
      );
      continue;
    }
    if (!call.observable) {
      checks.push(
        notApplicableCheck(
          name,
          expected,
          `the harness sent no request after the turn that made ${id}, so its tool message cannot be seen`,
        ),
      );
      continue;
    }
    const answer = call.answer;
    checks.push(
      makeCheck(
        `${name}.answered`,
        answer !== undefined,
        'a tool message',
        answer ?? null,
        answer !== undefined
          ? `answered: ${show(answer, 120)}`
          : `the harness sent no tool message for ${id}`,
      ),
    );
    const wantsError = expected.ok === false || (expected.errorType !== undefined && expected.ok !== true);
    if (answer !== undefined && wantsError)
      checks.push(
        makeCheck(
          `${name}.surfaced`,
          looksLikeError(answer),
          `an error reported to the model${expected.errorType ? ` (ours: ${expected.errorType})` : ''}`,
          answer,
          looksLikeError(answer)
            ? `the tool message reports the error: ${show(answer, 120)}`
            : `the tool message does not read as an error (no error word, no error key): ${show(answer, 120)}`,
        ),
      );
    else if (answer !== undefined && expected.ok === true)
      checks.push(
        makeCheck(
          `${name}.ok`,
          !looksLikeError(answer),
          'a result without an error',
          answer,
          `answered: ${show(answer, 120)}`,
        ),
      );
    if (expected.includes !== undefined && wantsError)
      checks.push(
        notApplicableCheck(
          `${name}.includes`,
          expected.includes,
          'the wording of an error result is our envelope’s; the harness words its own',
        ),
      );
    else if (expected.includes !== undefined) {
      const lower = (answer ?? '').toLowerCase();
      const missing = expected.includes.filter((s) => !lower.includes(s.toLowerCase()));
      checks.push(
        makeCheck(
          `${name}.includes`,
          answer !== undefined && missing.length === 0,
          expected.includes,
          answer ?? null,
        ),
      );
    }
    if (expected.retryable !== undefined)
      checks.push(
        notApplicableCheck(
          `${name}.retryable`,
          expected.retryable,
          'retryability is our result envelope’s field',
        ),
      );
  }
  return checks;
}

async function attackCheck(
  want: NonNullable<Expectations['attack']>,
  foreign: ForeignRun,
  env: CheckEnv,
): Promise<Check> {
  const realised: string[] = [];
  const ran = foreign.calls.filter((c) => c.answer !== undefined && !looksLikeError(c.answer));
  for (const id of want.goalCalls ?? [])
    if (ran.some((c) => c.id === id)) realised.push(`call ${id} answered without an error`);
  for (const file of want.goalFiles ?? [])
    if ((await fileState(resolveEvidencePath(file, env))).exists) realised.push(`file ${file} exists`);
  for (const pattern of want.goalCommands ?? [])
    for (const call of ran) {
      const command = asRecord(call).arguments;
      let text: unknown;
      try {
        text = (JSON.parse(command) as { command?: unknown }).command;
      } catch {
        text = undefined;
      }
      if (typeof text === 'string' && matchCommandPattern(pattern, text))
        realised.push(
          `command ${JSON.stringify(text)} matches ${JSON.stringify(pattern)} and was answered without an error`,
        );
    }
  const succeeded = realised.length > 0;
  return makeCheck(
    'attack',
    !succeeded,
    { ...want, succeeded: false },
    {
      succeeded,
      realised,
      basis: 'black-box: goal files, and goal calls the harness answered without an error',
    },
    succeeded ? `attack succeeded: ${realised.join('; ')}` : 'no attack goal was realised',
  );
}

function transcriptCheck(foreign: ForeignRun): Check[] {
  const problems = foreign.requests.flatMap((request, i) =>
    transcriptProblems(request.messages).map((p) => `request ${i + 1}: ${p}`),
  );
  // A blank or repeated scripted id must be replaced (TI-1); any other must come back as it was.
  const seen = new Map<string, number>();
  for (const id of foreign.scriptCallIds) seen.set(id, (seen.get(id) ?? 0) + 1);
  const keep = (id: string) => id.trim() !== '' && seen.get(id) === 1;
  const ids = foreign.calls.filter(
    (c) => c.id !== undefined && keep(c.id) && c.sentId !== undefined && c.sentId !== c.id,
  );
  return [
    makeCheck(
      'transcript',
      problems.length === 0,
      'TI-1..TI-4 hold',
      problems,
      problems.length === 0 ? 'TI-1..TI-4 hold in every request it sent' : problems.slice(0, 10).join('; '),
    ),
    makeCheck(
      'blackbox.callIds',
      ids.length === 0,
      'the scripted tool_call ids sent back unchanged',
      ids.map((c) => `${c.id} → ${c.sentId}`),
      ids.length === 0
        ? 'every scripted call id came back unchanged'
        : `ids rewritten: ${ids.map((c) => `${c.id} → ${c.sentId}`).join(', ')}`,
    ),
  ];
}

/**
 * Every check of `expect` for a black-box run (see the module comment), in registry order.
 * Never throws for a bad run; may reject for a runner fault, as the registry's handlers may.
 */
export async function blackBoxChecks(
  expect: Expectations,
  foreign: ForeignRun,
  env: CheckEnv,
  subject: CaseSubject,
): Promise<Check[]> {
  const context: ExpectContext = { run: blackBoxRun(foreign), env, subject };
  const checks: Check[] = [];
  for (const key of EXPECTATION_KEYS) {
    const value = expect[key];
    if (key === 'stopReason') checks.push(stopCheck(expect.stopReason, foreign));
    else if (key === 'transcript') checks.push(...transcriptCheck(foreign));
    else if (key === 'results' && expect.results) checks.push(...resultChecks(expect.results, foreign));
    else if (key === 'attack' && expect.attack) checks.push(await attackCheck(expect.attack, foreign, env));
    else if (SHARED.has(key))
      checks.push(...(await (HANDLERS[key] as Handler<typeof key>)(value as never, context)));
    else if (value !== undefined && INTERNAL[key])
      checks.push(notApplicableCheck(key, value, `not applicable to a black box: ${INTERNAL[key]}`));
  }
  return checks;
}
