/**
 * Whether a case judges a foreign harness at all (`docs/adapters.md`, "What a black box is scored
 * on"): a verdict on someone else's harness must be its weakness, never our conventions, a limit
 * it was not told or cannot honour, or a tool it was not given. Each rule here turns such a case
 * into `skipped` with the reason, before anything runs; the rules are pure functions of the
 * scenario, the configuration it runs under and the adapter's declarations.
 */
import type { HarnessConfig } from '../../harness/config.ts';
import type { StopReason } from '../../harness/loop/stop-reasons.ts';
import type { Scenario } from '../scenario/types.ts';
import { goalsTheHumanApproves, scriptCallTools } from '../blackbox/goals.ts';
import type { Adapter, HonouredLimit } from './load.ts';

/**
 * Tags whose cases test our harness's internals rather than a fault every harness must handle:
 * our session files, our context layers and their wording, our subagent tool. Scored for a
 * foreign harness only when its adapter opts in with `scores: ["internals"]`.
 */
export const INTERNAL_TAGS: Readonly<Record<string, string>> = {
  session: 'it tests our session files (their format, repair and resume)',
  context: 'it tests our context layers and their wording',
  compaction: 'it tests our compaction summary and pinned facts',
  subagent: 'it tests our subagent tool (`task`) and its accounting',
};

/**
 * The workspace tools the bench can serve to any harness (its reference implementations over MCP)
 * and that a harness with its own tools is expected to have under our names or mapped ones.
 * Our other built-ins (`task`, `write_todos`, `read_skill`, `save_note`, `search_notes`) are
 * features of our harness: a case that needs one is not scored for a foreign harness.
 */
export const WORKSPACE_TOOLS: readonly string[] = [
  'read_file',
  'write_file',
  'str_replace',
  'list_dir',
  'search_code',
  'bash',
];

/** The limit keys of a case's configuration, as {@link HonouredLimit}s (`loop.*` is one: `loop`). */
const LIMIT_KEYS: readonly Exclude<HonouredLimit, 'loop'>[] = [
  'maxTurns',
  'maxToolCalls',
  'maxTokens',
  'maxCostUsd',
  'maxWallMs',
  'maxConsecutiveTruncations',
  'wrapUpTurn',
];

/**
 * Every limit of one case as the harness under test is told it (`input.limits`, and one
 * `HARNESS_*` variable each: `docs/adapters.md`, "Limits"): the configuration's values with the
 * scenario's over them. Counts are calls and turns, tokens are prompt plus completion over the
 * run, cost is USD at `pricing` (USD per million tokens, by model name, `*` for any), wall time
 * is ms. `set` lists the limits the scenario itself sets: the ones its checks may depend on.
 */
export interface CaseLimits {
  maxTurns: number;
  maxToolCalls: number;
  maxTokens: number;
  maxCostUsd: number;
  maxWallMs: number;
  maxConsecutiveTruncations: number;
  wrapUpTurn: boolean;
  loop: { warnAt: number; stopAt: number };
  pricing: HarnessConfig['pricing'];
  set: HonouredLimit[];
}

/**
 * The limits of `scenario` under `config` (the scenario's `config` already merged in). `maxTurns`
 * falls back to the adapter's own default when the scenario sets none, as the contract always
 * said. Pure.
 */
export function caseLimits(scenario: Scenario, config: HarnessConfig, adapterMaxTurns: number): CaseLimits {
  const own = scenario.config?.limits ?? {};
  const set: HonouredLimit[] = LIMIT_KEYS.filter((key) => own[key] !== undefined);
  if (scenario.config?.loop && Object.keys(scenario.config.loop).length > 0) set.push('loop');
  return {
    maxTurns: own.maxTurns ?? adapterMaxTurns,
    maxToolCalls: config.limits.maxToolCalls,
    maxTokens: config.limits.maxTokens,
    maxCostUsd: config.limits.maxCostUsd,
    maxWallMs: config.limits.maxWallMs,
    maxConsecutiveTruncations: config.limits.maxConsecutiveTruncations,
    wrapUpTurn: config.limits.wrapUpTurn,
    loop: { warnAt: config.loop.warnAt, stopAt: config.loop.stopAt },
    pricing: config.pricing,
    set,
  };
}

/** The limit whose enforcement each budget or loop stop reason names. */
export const LIMIT_OF_STOP: Readonly<Partial<Record<StopReason, HonouredLimit>>> = {
  max_turns: 'maxTurns',
  tool_budget_exceeded: 'maxToolCalls',
  token_budget_exceeded: 'maxTokens',
  cost_budget_exceeded: 'maxCostUsd',
  time_budget_exceeded: 'maxWallMs',
  output_truncated: 'maxConsecutiveTruncations',
  repeated_tool_call: 'loop',
};

/**
 * The limits a case's verdict depends on: those its scenario sets, and the one its expected
 * stop reason names (a loop stop depends on the loop thresholds even at their defaults).
 */
export function limitsNeeded(limits: CaseLimits, expectedStop: StopReason | undefined): HonouredLimit[] {
  const implied = expectedStop ? LIMIT_OF_STOP[expectedStop] : undefined;
  return implied && !limits.set.includes(implied) ? [...limits.set, implied] : [...limits.set];
}

/**
 * Tool-result error types that are our permission policy's and approver's verdicts: whether a
 * harness should have asked (or refused) depends on rules it was never told, so they judge only
 * a harness that declares `approvals` (and takes the case's scripted human).
 */
export const POLICY_ERRORS: ReadonlySet<string> = new Set(['approval_denied', 'policy_violation']);

/**
 * True when the case's only "attack" is a request of the user's own: every goal is a call of a
 * tool the case's scripted human approves outright (`eval/blackbox/goals.ts`), so only our
 * policy or configuration refuses it (`taint.onTainted: deny`). Pure.
 */
export function attackIsTheUsersRequest(scenario: Scenario): boolean {
  return goalsTheHumanApproves(scenario.expect.attack, scenario.approver, scriptCallTools(scenario.model));
}

/**
 * True when the case is about our permission policy rather than an attack: tagged `permissions`,
 * expecting a denial of our policy or approver (`deny`, `ask:denied`) or a policy error (`POLICY_ERRORS`) for one of its calls, and with no `attack` goal
 * (an attack stays scored for every harness: realising its goal is a weakness whatever the rules),
 * unless every goal is the user's own request ({@link attackIsTheUsersRequest}).
 */
export function scoresOurPolicy(scenario: Scenario): boolean {
  if (scenario.expect.attack) return attackIsTheUsersRequest(scenario);
  if ((scenario.tags ?? []).includes('permissions')) return true;
  // A denial of our policy or approver, expected for a call.
  if (Object.values(scenario.expect.permissions ?? {}).some((v) => v === 'deny' || v === 'ask:denied'))
    return true;
  return Object.values(scenario.expect.results ?? {}).some(
    (want) => want.errorType !== undefined && POLICY_ERRORS.has(want.errorType),
  );
}

/**
 * The expectations of `scenario` that are our convention for `adapter` (`conventions.checks`),
 * with the reason, or `undefined` when the adapter scores conventions or the case names none.
 * The black-box scorer makes them `not_applicable`. Pure.
 */
export function conventionChecks(
  scenario: Pick<Scenario, 'conventions'>,
  adapter: Pick<Adapter, 'scores'>,
): { keys: readonly string[]; why: string } | undefined {
  const { conventions } = scenario;
  if (!conventions?.checks || adapter.scores.includes('conventions')) return undefined;
  return { keys: conventions.checks, why: conventions.ours };
}

/** Why a case does not judge a foreign harness, and what would make it do so. */
export interface NotForThisHarness {
  reason: string;
  fix: string;
}

/** True when the adapter takes the case's tools from the bench's MCP server (`"tools": "mcp"`). */
export function usesServedTools(adapter: Pick<Adapter, 'tools'>): boolean {
  return adapter.tools === 'mcp';
}

/**
 * True when a harness on its own tools runs the case's scripted `bash` with its own shell instead:
 * its `toolset` has `bash`, and every scripted result of `bash` is an empty output (so the script
 * hides nothing in them: no injected text, no output a check reads). Its shell really runs the
 * command, in the box with the recording stand-ins on `PATH` (`stand-ins.ts`), so an attack's goal
 * command counts when it ran; the checks of what the script would have answered are not
 * applicable (`ownShellCalls`). Pure.
 */
export function ownShellStandsIn(
  scenario: Pick<Scenario, 'fakeTools'>,
  adapter: Pick<Adapter, 'tools' | 'toolset'>,
): boolean {
  const shell = scenario.fakeTools?.bash;
  if (!shell || usesServedTools(adapter) || !adapter.toolset?.includes('bash')) return false;
  return (shell.results ?? []).every((result) => 'output' in result && result.output.trim() === '');
}

/** The ids of the scripted calls a harness answers with its own shell ({@link ownShellStandsIn}), else none. Pure. */
export function ownShellCalls(
  scenario: Pick<Scenario, 'fakeTools' | 'model'>,
  adapter: Pick<Adapter, 'tools' | 'toolset'>,
): string[] {
  if (!ownShellStandsIn(scenario, adapter)) return [];
  return [...scriptCallTools(scenario.model)].filter(([, tool]) => tool === 'bash').map(([id]) => id);
}

/** The tools a case offers the model: its built-ins (or the configuration's) and its scripted ones. */
function caseToolNames(
  scenario: Scenario,
  config: HarnessConfig,
): { builtins: string[]; scripted: string[] } {
  const scripted = Object.keys(scenario.fakeTools ?? {});
  const builtins = (scenario.tools ?? config.tools).filter((name) => !scripted.includes(name));
  return { builtins, scripted };
}

/**
 * The reason `scenario` (under `config`, limits `limits`) does not judge `adapter`, or `undefined`
 * when it does. In order: a convention of ours (`conventions.ours`) unless the adapter opts in to
 * conventions; a tag of {@link INTERNAL_TAGS} unless it opts in to internals; a limit the case sets
 * or its expected stop reason names (`expectedStop`, {@link limitsNeeded}) that the adapter does
 * not declare it honours; our permission policy ({@link scoresOurPolicy}) for a harness without
 * approvals; a tool the harness was not given (one of our own
 * features, a scripted tool the script calls for a harness on its own tools, unless it is a blank
 * scripted `bash` its own shell stands in for ({@link ownShellStandsIn}), a tool outside its
 * `toolset`). A scripted tool the script never calls is not needed. Pure.
 */
export function notForThisHarness(
  scenario: Scenario,
  config: HarnessConfig,
  limits: CaseLimits,
  adapter: Pick<Adapter, 'name' | 'tools' | 'toolset' | 'honours' | 'scores' | 'approvals'>,
  expectedStop?: StopReason,
): NotForThisHarness | undefined {
  const who = adapter.name;
  // A convention of some checks only leaves those out (`conventionChecks`), not the case.
  if (scenario.conventions && !scenario.conventions.checks && !adapter.scores.includes('conventions'))
    return {
      reason: `it tests a convention of our harness, not a fault every harness must handle: ${scenario.conventions.ours}`,
      fix: `add "scores": ["conventions"] to the adapter file to score ${who} on our conventions too`,
    };
  if (!adapter.scores.includes('internals')) {
    const tag = (scenario.tags ?? []).find((t) => Object.hasOwn(INTERNAL_TAGS, t));
    if (tag)
      return {
        reason: `it is tagged ${tag}: ${INTERNAL_TAGS[tag]}`,
        fix: `add "scores": ["internals"] to the adapter file to score ${who} on our internals too`,
      };
  }
  if (!adapter.approvals && scenario.expect.attack && attackIsTheUsersRequest(scenario))
    return {
      reason: `every attack goal is a call the case's own scripted human approves outright: it is the user's request, refused only by our policy or configuration, and ${who} declares no approvals`,
      fix: `if ${who} asks before risky calls and can take the case's scripted answers (HARNESS_APPROVER), set "approvals": true`,
    };
  if (!adapter.approvals && scoresOurPolicy(scenario))
    return {
      reason: `it scores our permission policy and approver (asks, denials by rule), and ${who} declares no approvals`,
      fix: `if ${who} asks before risky calls and can take the case's scripted answers (HARNESS_APPROVER), set "approvals": true`,
    };
  const unhonoured = limitsNeeded(limits, expectedStop).filter((limit) => !adapter.honours.includes(limit));
  if (unhonoured.length > 0) {
    const named = unhonoured.map((limit) =>
      limit === 'loop'
        ? `loop (warnAt ${limits.loop.warnAt}, stopAt ${limits.loop.stopAt})`
        : `${limit} (${String(limits[limit])})`,
    );
    return {
      reason: `its verdict depends on ${named.join(', ')}, which ${who} does not declare it honours (honours: ${adapter.honours.join(', ') || 'none'})`,
      fix: `if ${who} enforces it when told (input.limits, HARNESS_* variables), add it to "honours" in the adapter file`,
    };
  }
  const { builtins, scripted } = caseToolNames(scenario, config);
  const ours = builtins.filter((name) => !WORKSPACE_TOOLS.includes(name));
  if (ours.length > 0 && !adapter.scores.includes('internals'))
    return {
      reason: `it needs ${ours.join(', ')}, a tool of our harness that ${who} was not given`,
      fix: `add "scores": ["internals"] to the adapter file if ${who} implements ${ours.join(', ')} under that name`,
    };
  if (usesServedTools(adapter)) return undefined;
  const own = ownShellStandsIn(scenario, adapter) ? ['bash'] : [];
  const called = new Set(scriptCallTools(scenario.model).values());
  const needed = scripted.filter((name) => called.has(name) && !own.includes(name));
  if (needed.length > 0)
    return {
      reason: `its scripted tools (${needed.join(', ')}) and their results are served over MCP, and ${who} uses its own tools`,
      fix: `set "tools": "mcp" in the adapter file so ${who} takes the case's tools from the bench's MCP server`,
    };
  const missing = adapter.toolset ? builtins.filter((name) => !adapter.toolset!.includes(name)) : [];
  if (missing.length > 0)
    return {
      reason: `it needs ${missing.join(', ')}, which ${who} does not have (toolset: ${adapter.toolset!.join(', ')})`,
      fix: `set "tools": "mcp" in the adapter file to take the bench's implementations, or add the tool to ${who}`,
    };
  return undefined;
}

/**
 * The limits as environment variables of a command adapter: `HARNESS_MAX_TURNS`,
 * `HARNESS_MAX_TOOL_CALLS`, `HARNESS_MAX_TOKENS`, `HARNESS_MAX_COST_USD`, `HARNESS_MAX_WALL_MS`,
 * `HARNESS_MAX_CONSECUTIVE_TRUNCATIONS`, `HARNESS_WRAP_UP_TURN` (`true`/`false`),
 * `HARNESS_LOOP_WARN_AT`, `HARNESS_LOOP_STOP_AT`, and all of them with the pricing as one JSON
 * object in `HARNESS_LIMITS`. Pure.
 */
export function limitsEnv(limits: CaseLimits): Record<string, string> {
  return {
    HARNESS_MAX_TURNS: String(limits.maxTurns),
    HARNESS_MAX_TOOL_CALLS: String(limits.maxToolCalls),
    HARNESS_MAX_TOKENS: String(limits.maxTokens),
    HARNESS_MAX_COST_USD: String(limits.maxCostUsd),
    HARNESS_MAX_WALL_MS: String(limits.maxWallMs),
    HARNESS_MAX_CONSECUTIVE_TRUNCATIONS: String(limits.maxConsecutiveTruncations),
    HARNESS_WRAP_UP_TURN: String(limits.wrapUpTurn),
    HARNESS_LOOP_WARN_AT: String(limits.loop.warnAt),
    HARNESS_LOOP_STOP_AT: String(limits.loop.stopAt),
    HARNESS_LIMITS: JSON.stringify(limits),
  };
}
