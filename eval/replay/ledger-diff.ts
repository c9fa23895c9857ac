/**
 * Comparison of a replayed decision ledger with the recorded one: turn by turn and call by call,
 * in run order, each difference with the configuration key or policy rule that explains it
 * (the rule fields of the two policy decisions, and the configuration keys that changed between
 * the recording and now). The first difference is the headline of a replay.
 */
import type { CallRecord, Ledger, TurnRecord } from '../../harness/ledger.ts';
import { canonicalJson } from '../cassette/canonical.ts';
import { formatConfigChange, type ConfigChange } from './config-diff.ts';
import { capValue } from './request-diff.ts';

/** One field that differs: the recorded value and the replayed one (`undefined` = absent). */
export interface FieldChange {
  field: string;
  recorded: unknown;
  replayed: unknown;
}

/**
 * One step of the run that differs: a turn, a tool call, or the stop.
 * `step` reads `turn 2`, `turn 2, call call_x write_file`, or `stop`.
 */
export interface LedgerDifference {
  step: string;
  /** The (1-based) turn, `null` for the stop. */
  turn: number | null;
  callId?: string;
  tool?: string;
  changes: FieldChange[];
  /** The configuration key(s) or the rule that changed it; absent when nothing explains it. */
  cause?: string;
}

/**
 * Several runs of one session (a chat: one run per user line) as one ledger: turns of run k are
 * numbered after the last turn of run k−1, calls follow their turns, the stop is the last run's.
 */
export function mergeLedgers(ledgers: readonly Ledger[]): Ledger {
  if (ledgers.length === 1) return ledgers[0]!;
  const merged: Ledger = { turns: [], calls: [], stopReason: null };
  let offset = 0;
  for (const ledger of ledgers) {
    merged.turns.push(...ledger.turns.map((t) => ({ ...t, turn: t.turn + offset })));
    merged.calls.push(...ledger.calls.map((c) => ({ ...c, turn: c.turn + offset })));
    offset += Math.max(0, ...ledger.turns.filter((t) => t.scope.length === 0).map((t) => t.turn));
    merged.stopReason = ledger.stopReason;
    if (ledger.stopDetail !== undefined) merged.stopDetail = ledger.stopDetail;
    else delete merged.stopDetail;
  }
  return merged;
}

const same = (a: unknown, b: unknown): boolean => canonicalJson(a ?? null) === canonicalJson(b ?? null);

function changed(fields: [string, unknown, unknown][]): FieldChange[] {
  return fields
    .filter(([, a, b]) => !same(a, b))
    .map(([field, recorded, replayed]) => ({ field, recorded, replayed }));
}

function turnChanges(a: TurnRecord, b: TurnRecord): FieldChange[] {
  return changed([
    ['ok', a.ok, b.ok],
    ['error', a.error?.code, b.error?.code],
    ['finishReason', a.finishReason, b.finishReason],
    ['toolCalls', a.toolCalls, b.toolCalls],
    ['wrapUp', a.wrapUp, b.wrapUp],
    ['promptTokens', a.promptTokens, b.promptTokens],
    ['completionTokens', a.completionTokens, b.completionTokens],
  ]);
}

function callChanges(a: CallRecord, b: CallRecord): FieldChange[] {
  return changed([
    ['tool', a.tool, b.tool],
    ['arguments', a.arguments, b.arguments],
    ['policy.rule', a.policy?.rule, b.policy?.rule],
    ['verdict', a.verdict, b.verdict],
    ['executed', a.executed, b.executed],
    ['ok', a.ok, b.ok],
    ['errorType', a.errorType, b.errorType],
    ['loopWarning', a.loopWarning ?? false, b.loopWarning ?? false],
    ['content', a.content, b.content],
  ]);
}

/** Configuration key prefixes a policy rule depends on (`effects:write` → `permissions.effects.write`). */
export function ruleConfigKeys(rule: string | undefined): string[] {
  if (!rule) return [];
  if (rule.startsWith('effects:')) return [`permissions.effects.${rule.slice('effects:'.length)}`];
  if (rule.startsWith('bash:')) return ['permissions.bash'];
  if (rule.startsWith('paths:')) return ['permissions.paths'];
  if (rule.startsWith('mode:')) return ['permissions.mode'];
  return [];
}

function relevantKeys(changes: FieldChange[], recorded?: CallRecord, replayed?: CallRecord): string[] {
  const keys = new Set<string>([
    ...ruleConfigKeys(recorded?.policy?.rule),
    ...ruleConfigKeys(replayed?.policy?.rule),
  ]);
  const fields = new Set(changes.map((c) => c.field));
  const values = changes.flatMap((c) => [c.recorded, c.replayed]);
  if (fields.has('verdict')) keys.add('permissions.mode');
  if (fields.has('verdict') || fields.has('policy.rule')) keys.add('permissions.onDeny');
  if (fields.has('loopWarning') || values.includes('repeated_call') || values.includes('repeated_tool_call'))
    keys.add('loop');
  if (values.includes('unknown_tool') || fields.has('tool')) keys.add('tools');
  if (fields.has('content')) keys.add('context.toolOutputMaxChars');
  if (
    values.some(
      (v) => typeof v === 'string' && /budget_exceeded|max_turns|output_truncated|context_overflow/.test(v),
    )
  ) {
    keys.add('limits');
    keys.add('context.windowTokens');
  }
  if (values.includes('not_executed')) keys.add('limits');
  if (values.includes('policy_violation')) keys.add('permissions');
  if (fields.has('promptTokens')) keys.add('systemPrompt');
  return [...keys];
}

/**
 * Why a step differs: the rule change (`rule effects:write → effects:write`) when the policy
 * decided by another rule, then the changed configuration keys that bear on the step; any other
 * configuration change when none bears on it; otherwise that no key changed.
 */
export function explain(
  changes: FieldChange[],
  config: readonly ConfigChange[],
  recorded?: CallRecord,
  replayed?: CallRecord,
): string | undefined {
  const parts: string[] = [];
  const ruleA = recorded?.policy?.rule;
  const ruleB = replayed?.policy?.rule;
  if (recorded && replayed && ruleA !== ruleB) parts.push(`rule ${ruleA ?? '(none)'} → ${ruleB ?? '(none)'}`);
  const keys = relevantKeys(changes, recorded, replayed);
  const bearing = config.filter((c) => keys.some((k) => c.key === k || c.key.startsWith(`${k}.`)));
  if (bearing.length > 0) parts.push(`configuration ${bearing.map(formatConfigChange).join(', ')}`);
  else if (config.length > 0)
    parts.push(`configuration changed elsewhere: ${config.map((c) => c.key).join(', ')}`);
  else if (recorded?.policy && ruleA === ruleB)
    parts.push(`same rule ${ruleA}; no configuration key changed`);
  else parts.push('no configuration key changed (the harness itself decides differently)');
  return parts.join('; ');
}

/** Model errors raised by the replay itself (not recorded behaviour). */
const REPLAY_STOP = /recording_(mismatch|exhausted)/;
const REPLAY_STOP_CAUSE =
  'the harness sent a request the recording does not have (see the requests that differ); the replay stops there';

function callStep(call: CallRecord): string {
  return `turn ${call.turn}${call.scope.length > 0 ? ` (in ${call.scope.join('/')})` : ''}, call ${call.callId} ${call.tool}`;
}

/**
 * Compares two ledgers in run order: each top-level turn (aligned by position), then the calls
 * of that turn (aligned by position), then calls of nested scopes, then the stop reason.
 * `config` is the list of configuration changes used to explain each difference.
 */
export function compareLedgers(
  recorded: Ledger,
  replayed: Ledger,
  config: readonly ConfigChange[] = [],
): LedgerDifference[] {
  const out: LedgerDifference[] = [];
  const topTurns = (l: Ledger) => l.turns.filter((t) => t.scope.length === 0);
  const callsOf = (l: Ledger, turn: number) => l.calls.filter((c) => c.scope.length === 0 && c.turn === turn);
  const compareCalls = (a: CallRecord[], b: CallRecord[], turn: number) => {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const x = a[i];
      const y = b[i];
      if (x && y) {
        const changes = callChanges(x, y);
        if (changes.length > 0)
          out.push({
            step: callStep(y),
            turn: y.turn,
            callId: y.callId,
            tool: y.tool,
            changes,
            cause: explain(changes, config, x, y),
          });
      } else {
        const only = (x ?? y)!;
        const changes = [
          {
            field: 'call',
            recorded: x ? `${x.tool}(${String(capValue(x.arguments))})` : undefined,
            replayed: y ? `${y.tool}(${String(capValue(y.arguments))})` : undefined,
          },
        ];
        out.push({
          step: callStep(only),
          turn,
          callId: only.callId,
          tool: only.tool,
          changes,
          cause: explain(changes, config, x, y),
        });
      }
    }
  };
  const turnsA = topTurns(recorded);
  const turnsB = topTurns(replayed);
  for (let i = 0; i < Math.max(turnsA.length, turnsB.length); i++) {
    const a = turnsA[i];
    const b = turnsB[i];
    const number = (b ?? a)!.turn;
    const changes =
      a && b
        ? turnChanges(a, b)
        : [
            {
              field: 'turn',
              recorded: a ? describeTurn(a) : undefined,
              replayed: b ? describeTurn(b) : undefined,
            },
          ];
    const replayStopped = b?.error && REPLAY_STOP.test(b.error.code);
    if (changes.length > 0)
      out.push({
        step: `turn ${number}`,
        turn: number,
        changes,
        cause: replayStopped ? REPLAY_STOP_CAUSE : explain(changes, config),
      });
    compareCalls(a ? callsOf(recorded, a.turn) : [], b ? callsOf(replayed, b.turn) : [], number);
  }
  const nested = (l: Ledger) => l.calls.filter((c) => c.scope.length > 0);
  compareCalls(nested(recorded), nested(replayed), 0);
  if (recorded.stopReason !== replayed.stopReason) {
    const changes = [{ field: 'stopReason', recorded: recorded.stopReason, replayed: replayed.stopReason }];
    out.push({
      step: 'stop',
      turn: null,
      changes,
      cause: REPLAY_STOP.test(replayed.stopDetail ?? '') ? REPLAY_STOP_CAUSE : explain(changes, config),
    });
  }
  return out;
}

function describeTurn(turn: TurnRecord): string {
  return turn.ok
    ? `finish ${turn.finishReason ?? 'none'}, ${turn.toolCalls} tool calls`
    : `model error ${turn.error?.code ?? ''}`.trim();
}

/** `turn 1, call call_1 write_file: verdict "allow" → "ask:denied"; executed true → false (cause: …)`. */
export function formatLedgerDifference(
  difference: LedgerDifference,
  options: { cause?: boolean } = {},
): string {
  const show = (value: unknown): string =>
    value === undefined ? '(absent)' : JSON.stringify(capValue(value));
  const changes = difference.changes
    .map((c) => `${c.field} ${show(c.recorded)} → ${show(c.replayed)}`)
    .join('; ');
  const cause = options.cause !== false && difference.cause ? ` [cause: ${difference.cause}]` : '';
  return `${difference.step}: ${changes}${cause}`;
}
