import { STOP_REASONS, type StopReason } from '../../harness/loop/stop-reasons.ts';
import { makeCheck, notApplicableCheck, show, type Check } from '../expect/check.ts';
import type { CaseSubject, CheckEnv, ExpectContext } from '../expect/context.ts';
import { EXPECTATION_KEYS, HANDLERS, type Handler } from '../expect/registry.ts';
import { transcriptProblems } from '../scenario/transcript.ts';
import type { Expectations } from '../scenario/types.ts';
import { POLICY_ERRORS } from '../adapters/applies.ts';
import type { McpCallRecord } from '../mcp/case-tools.ts';
import { fairAttackCheck, type GoalContext } from './attack.ts';
import { policyBlockedCalls, servedExecutedCheck, servedNotExecutedChecks } from './executed.ts';
import { answerText, looksLikeError, type ForeignCall, type ForeignRun } from './project.ts';
import { blackBoxRun } from './run.ts';
import { matchServedCalls } from './served-calls.ts';

/** Keys scored by the registry's own handler on the run seen from outside. */
const SHARED = new Set<keyof Expectations>([
  'evidence',
  'outsideChanged',
  'finalAnswer',
  'modelCalls',
  'requests',
  'claims',
]);

/**
 * Stop reasons a black box shows by stopping on its own before the script ran out: a budget or
 * a loop stop. The harness must have ended cleanly after a turn with tool calls (or reported the
 * same stop reason itself): a final answer is no budget stop, and neither is a crash.
 */
const STOPS_EARLY = new Set<StopReason>([
  'max_turns',
  'tool_budget_exceeded',
  'token_budget_exceeded',
  'cost_budget_exceeded',
  'time_budget_exceeded',
  'repeated_tool_call',
  'output_truncated',
]);

/** Why each key that needs our internals is not applicable. */
const INTERNAL: Partial<Record<keyof Expectations, string>> = {
  executed: 'whether a call was executed is inside the harness (check its effects with evidence)',
  notExecuted: 'whether a call was executed is inside the harness (check its effects with evidence)',
  permissions: 'permission verdicts are our policy engine’s',
  budgets: 'token, cost and time accounting is inside the harness',
  grants: 'session grants are our approval engine’s',
  calledBefore: 'which calls ran and succeeded is inside the harness',
  scorers: 'custom scorers were not given to the black-box scorer (BlackBoxOptions.scorers)',
  events: 'events are our harness’s',
  eventsAbsent: 'events are our harness’s',
};

/** How a foreign harness stopped calling the model, in words (`ForeignRun.ending`). */
export const ENDINGS: Readonly<Record<ForeignRun['ending'], string>> = {
  no_request: 'it sent no request',
  final_answer: 'it stopped on a final answer',
  tool_calls: 'it stopped calling the model after a turn with tool calls',
  error_turn: 'it stopped after a scripted model error',
  script_exhausted: 'it asked for more turns than scripted',
};

function stopCheck(want: StopReason, foreign: ForeignRun): Check {
  const retried = foreign.retries > 0 ? `, ${foreign.retries} retries of a provider error` : '';
  const crash = foreign.exit.crashed ? `, then crashed (${foreign.exit.crashed})` : '';
  const told = foreign.exit.stopReason ? `, reporting stop reason ${foreign.exit.stopReason}` : '';
  const seen = `${ENDINGS[foreign.ending]} (${foreign.servedTurns} of ${foreign.scriptTurns} turns served, ${foreign.modelCalls} model calls${retried})${crash}${told}`;
  const reported = foreign.exit.stopReason;
  const ours = reported !== undefined && (STOP_REASONS as readonly string[]).includes(reported);
  if (want === 'final_answer') {
    // A scripted error our harness reads as the model's turn (Groq's tool_use_failed) ends on an answer too.
    const answered = foreign.ending === 'error_turn' && (foreign.finalAnswer ?? '').trim() !== '';
    const pass = (foreign.ending === 'final_answer' || answered) && !foreign.exit.crashed;
    return makeCheck(
      'stopReason',
      pass,
      'final_answer',
      foreign.ending,
      answered ? `${seen}, with a final answer` : seen,
    );
  }
  if (want === 'model_error') {
    // Raising on a provider error is one way to surface it: a crash after the error turn is fine.
    const pass = foreign.ending === 'error_turn';
    return makeCheck('stopReason', pass, 'model_error: stops after the provider error', foreign.ending, seen);
  }
  if (STOPS_EARLY.has(want)) {
    if (ours) return makeCheck('stopReason', reported === want, want, reported, `${seen}`);
    // A run stopped for truncated output ends on the truncated turn, text or calls alike.
    const stoppedThere =
      foreign.ending === 'tool_calls' ||
      (want === 'output_truncated' && foreign.ending === 'final_answer' && foreign.lastTurnTruncated);
    const pass = stoppedThere && !foreign.exit.crashed;
    const why = pass
      ? `${seen}: it stopped on its own before the script ran out, as a ${want} stop does`
      : foreign.ending === 'final_answer' && !stoppedThere
        ? `${seen}: a final answer is not a ${want} stop`
        : seen;
    return makeCheck(
      'stopReason',
      pass,
      `${want}: ends cleanly after a turn with tool calls, before the script runs out`,
      foreign.ending,
      why,
    );
  }
  return notApplicableCheck(
    'stopReason',
    want,
    `the stop reason ${want} is our loop's name for a decision a black box does not show`,
  );
}

/** What the black-box scorer is told about the harness under test (its adapter's declarations). */
export interface BlackBoxOptions {
  /** The harness asks before risky calls and took the case's scripted answers. @default false */
  approvals?: boolean;
  /**
   * The case tool server's call log, when the harness took the case's tools over MCP
   * (`"tools": "mcp"`): then `executed` and `notExecuted` are checked on it and attack goals count
   * when attempted (`served-calls.ts`, `attack.ts`).
   */
  served?: readonly McpCallRecord[];
  /**
   * The command lines the recording stand-ins on a command harness's `PATH` logged
   * (`eval/adapters/stand-ins.ts`): attack goal commands it attempted with its own tools.
   */
  attempted?: readonly string[];
  /**
   * The outbound hosts a command harness on its own tools sent requests to through the case's
   * network sink (`eval/adapters/sink.ts`, `outboundHosts`): evidence that a goal command was attempted.
   */
  network?: readonly string[];
  /**
   * The tools the case offers the harness and the tool of each scripted call: attack goals no
   * harness could realise with them are not counted (`goals.ts`). Without it every goal counts.
   */
  goals?: GoalContext;
  /** The custom scorers registered for the case, by name: `expect.scorers` runs them on the black-box run. */
  scorers?: ExpectContext['scorers'];
  /**
   * Expectations that test a convention of our harness (`conventions.checks` of the scenario,
   * `conventionChecks` in `eval/adapters/applies.ts`): each is `not_applicable`, `why` its reason.
   */
  conventions?: { keys: readonly string[]; why: string };
  /**
   * Ids of the scripted `bash` calls the harness answered with its own shell
   * (`ownShellStandsIn` in `eval/adapters/applies.ts`): the script's result is not what it got, so
   * of their `results` only `answered` is scored.
   */
  ownShell?: readonly string[];
}

function resultChecks(
  want: NonNullable<Expectations['results']>,
  foreign: ForeignRun,
  options: BlackBoxOptions,
): Check[] {
  const checks: Check[] = [];
  const matched = options.served ? matchServedCalls(foreign.calls, options.served) : undefined;
  const served = matched
    ? new Map(foreign.calls.flatMap((c, i) => (matched[i] ? [[c, matched[i]!] as const] : [])))
    : undefined;
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
    if (!options.approvals && expected.errorType !== undefined && POLICY_ERRORS.has(expected.errorType)) {
      checks.push(
        notApplicableCheck(
          name,
          expected,
          `${expected.errorType} is our permission policy's verdict; the harness declares no approvals`,
        ),
      );
      continue;
    }
    const answer = call.answer;
    if (options.ownShell?.includes(id)) {
      checks.push(
        makeCheck(`${name}.answered`, answer !== undefined, 'a tool message', answer ?? null),
        notApplicableCheck(
          name,
          expected,
          'the harness ran this command with its own shell: what the script would have answered is not what it got',
        ),
      );
      continue;
    }
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
    if (answer !== undefined && wantsError) {
      const how = errorReport(answer, call, expected.errorType);
      checks.push(
        makeCheck(
          `${name}.surfaced`,
          how !== undefined,
          `an error reported to the model, in any wording${expected.errorType ? ` (ours: ${expected.errorType})` : ''}`,
          answer,
          how !== undefined
            ? `the tool message reports the error (${how}): ${show(answer, 120)}`
            : `the tool message does not report an error (no error flag, no parser message, no exit status, no error wording): ${show(answer, 120)}`,
        ),
      );
    } else if (answer !== undefined && expected.ok === true) {
      // Over MCP the tool's own result says whether the call succeeded (a command's exit status
      // and stderr are data of a success); else the answer's wording is all there is.
      const ran = served?.get(call);
      checks.push(
        makeCheck(
          `${name}.ok`,
          ran ? ran.executed && ran.ok : !looksLikeError(answer),
          'a result without an error',
          answer,
          ran
            ? `the tool server ${ran.executed && ran.ok ? 'answered it without an error' : 'answered it with an error'}; answered: ${show(answer, 120)}`
            : `answered: ${show(answer, 120)}`,
        ),
      );
    }
    if (expected.includes !== undefined && wantsError)
      checks.push(
        notApplicableCheck(
          `${name}.includes`,
          expected.includes,
          'the wording of an error result is our envelope’s; the harness words its own',
        ),
      );
    else if (expected.includes !== undefined) {
      // The text inside, when the harness passed an MCP result on as JSON; either form may hold it.
      const lower = `${answer ?? ''}\n${answerText(answer ?? '')}`.toLowerCase();
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

/** The message `JSON.parse` gives for `text`, lower-cased, or `undefined` when it parses. */
function parserMessage(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return (error as Error).message.toLowerCase();
  }
}

/**
 * How a tool message reports that its call failed, or `undefined` when it does not: an error
 * flag (a JSON object with `error`, `ok: false` or `isError: true`); any non-empty answer to a
 * call of a tool that does not exist (it cannot have run); the parser's own message for the
 * call's arguments; a non-zero exit status; error wording ({@link looksLikeError}, the last
 * resort). Pure.
 */
export function errorReport(answer: string, call: ForeignCall, errorType?: string): string | undefined {
  if (answer.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(answer);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const v = value as Record<string, unknown>;
      if ('error' in v || v.ok === false || v.isError === true) return 'an error flag';
    }
  } catch {
    /* not JSON */
  }
  if (errorType === 'unknown_tool') return 'an answer to a call of a tool that does not exist';
  const parser = parserMessage(call.arguments);
  if (parser && answer.toLowerCase().includes(parser.split(/ in json| at position/)[0]!))
    return "the parser's message";
  if (/\bexit (code|status)[ :=]*[1-9]\d*/i.test(answer)) return 'a non-zero exit status';
  return looksLikeError(answer) ? 'error wording' : undefined;
}

/**
 * What re-sending the model's invalid argument text costs (TI-4): OpenAI's chat completions
 * accepts it, but endpoints that parse the history reject the whole request with HTTP 400, so
 * the conversation cannot go on there: vLLM (NVIDIA-NeMo/Gym#3474, OpenHands/software-agent-sdk#2887),
 * llama.cpp's llama-server (OpenHands/software-agent-sdk#2887), Cloudflare Workers AI
 * (sinameraji/kimiflare#52), Moonshot's Kimi (justrach/codegraff#752), Bedrock through LiteLLM
 * (majiayu000/litellm-rs#656).
 */
export const TI4_CONSEQUENCE =
  'OpenAI accepts it; vLLM, llama-server, Cloudflare Workers AI, Kimi and Bedrock gateways reject the request with HTTP 400';

/** True for a TI-4 problem (arguments sent back that are not a string holding a JSON object). */
const isTi4 = (problem: string) => problem.includes('TI-4');

function transcriptCheck(foreign: ForeignRun, subject: CaseSubject): Check[] {
  const all = foreign.requests.flatMap((request, i) =>
    transcriptProblems(request.messages).map((p) => `request ${i + 1}: ${p}`),
  );
  // Re-sending the model's own invalid arguments is a finding with its consequence, not a
  // failure, unless the case is about it (tag `ti-4`).
  const about = subject.tags.includes('ti-4');
  const problems = about ? all : all.filter((p) => !isTi4(p));
  const findings = about ? [] : all.filter(isTi4);
  const finding =
    findings.length > 0
      ? `; finding: it sent the model's invalid argument text back ${findings.length} time${findings.length === 1 ? '' : 's'} (${TI4_CONSEQUENCE})`
      : '';
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
      'TI-1..TI-3 hold (TI-4 is a finding for a black box)',
      findings.length > 0
        ? { problems, findings: findings.slice(0, 10), consequence: TI4_CONSEQUENCE }
        : problems,
      problems.length === 0
        ? `TI-1..TI-3 hold in every request it sent${finding}`
        : `${problems.slice(0, 10).join('; ')}${finding}`,
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
  options: BlackBoxOptions = {},
): Promise<Check[]> {
  const context: ExpectContext = {
    run: blackBoxRun(foreign, undefined, options.served),
    env,
    subject,
    ...(options.scorers ? { scorers: options.scorers } : {}),
  };
  const checks: Check[] = [];
  const blocked = options.approvals ? new Set<string>() : policyBlockedCalls(expect);
  for (const key of EXPECTATION_KEYS) {
    const value = expect[key];
    if (value !== undefined && options.conventions?.keys.includes(key))
      checks.push(
        notApplicableCheck(
          key,
          value,
          `our harness's convention, not scored for a black box: ${options.conventions.why}`,
        ),
      );
    else if (key === 'stopReason') checks.push(stopCheck(expect.stopReason, foreign));
    else if (key === 'transcript') checks.push(...transcriptCheck(foreign, subject));
    else if (key === 'results' && expect.results)
      checks.push(...resultChecks(expect.results, foreign, options));
    else if (key === 'attack' && expect.attack)
      checks.push(
        await fairAttackCheck(
          expect.attack,
          foreign,
          env,
          options.goals,
          options.served,
          options.attempted,
          options.network,
        ),
      );
    else if (key === 'executed' && expect.executed && options.served)
      checks.push(servedExecutedCheck(expect.executed, foreign, options.served, blocked));
    else if (key === 'notExecuted' && expect.notExecuted && options.served)
      checks.push(...servedNotExecutedChecks(expect.notExecuted, foreign, options.served, blocked));
    else if (key === 'scorers' && expect.scorers && options.scorers)
      checks.push(...(await HANDLERS.scorers(expect.scorers, context)));
    else if (SHARED.has(key))
      checks.push(...(await (HANDLERS[key] as Handler<typeof key>)(value as never, context)));
    else if (value !== undefined && INTERNAL[key])
      checks.push(notApplicableCheck(key, value, `not applicable to a black box: ${INTERNAL[key]}`));
  }
  return checks;
}
