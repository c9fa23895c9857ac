/**
 * Subagent faults (`harness/subagent/spawn.ts`, `report.ts`, `harness/policy/child-policy.ts`):
 * a child that keeps more than its parent gives it, sees more than its description, or escapes
 * the limits of the tree. Public threads: anthropics/claude-code#64162 (plan mode did not carry
 * over), anomalyco/opencode#18100 (unbounded nesting), slopus/happy#733 (mode inheritance),
 * anthropics/claude-code#17850 (a parent's permissive mode handed to every child).
 */
import type { Fault } from '../types.ts';

export const SUBAGENT_FAULTS: Fault[] = [
  {
    id: 'subagent/keeps-parent-mode',
    tag: 'subagent',
    bug: "a subagent runs in its parent's permission mode instead of plan mode",
    patches: [
      {
        file: 'harness/subagent/spawn.ts',
        search: "mode: 'plan',",
        replace: 'mode: config.permissions.mode,',
      },
    ],
  },
  {
    id: 'subagent/depth-off-by-one',
    tag: 'subagent',
    bug: 'the depth check lets a subagent nest one level deeper than subagent.maxDepth',
    patches: [
      {
        file: 'harness/subagent/spawn.ts',
        search: 'if (depth > config.subagent.maxDepth)',
        replace: 'if (depth > config.subagent.maxDepth + 1)',
      },
    ],
  },
  {
    id: 'subagent/max-total-ignored',
    tag: 'subagent',
    bug: 'subagent.maxTotal is not enforced',
    patches: [
      {
        file: 'harness/subagent/spawn.ts',
        search: 'if (count.spawned >= count.maxTotal)',
        replace: 'if (count.spawned >= Number.POSITIVE_INFINITY)',
      },
    ],
  },
  {
    id: 'subagent/max-turns-ignored',
    tag: 'subagent',
    bug: "a subagent's turn limit is the parent's maxTurns, not subagent.maxTurns",
    patches: [
      {
        file: 'harness/policy/child-policy.ts',
        search: 'p.subagent.maxTurns,',
        replace: 'p.limits.maxTurns,',
      },
      {
        file: 'harness/subagent/spawn.ts',
        search: 'maxTurns: config.subagent.maxTurns,',
        replace: 'maxTurns: config.limits.maxTurns,',
      },
    ],
  },
  {
    id: 'subagent/taint-not-inherited',
    tag: 'subagent',
    bug: 'a subagent starts with a clean taint state although untrusted content is in its parent',
    patches: [{ file: 'harness/subagent/spawn.ts', search: 'taint: parent.state.taint,', replace: '' }],
  },
  {
    id: 'subagent/events-not-forwarded',
    tag: 'subagent',
    bug: "a subagent's events are not added to the parent's stream",
    patches: [{ file: 'harness/subagent/spawn.ts', search: 'events.push(nested);', replace: '' }],
  },
  {
    id: 'subagent/no-subagent-note',
    tag: 'subagent',
    bug: 'a subagent gets the parent system prompt without the note that it is a subagent',
    patches: [
      {
        file: 'harness/subagent/spawn.ts',
        search:
          'systemPrompt: config.systemPrompt ? `${config.systemPrompt}\\n\\n${SUBAGENT_NOTE}` : SUBAGENT_NOTE,',
        replace: 'systemPrompt: config.systemPrompt,',
      },
    ],
  },
  {
    id: 'subagent/report-counts-nested-calls',
    tag: 'subagent',
    bug: "the report counts the calls of the child's own children and its denials wrongly",
    patches: [
      {
        file: 'harness/subagent/report.ts',
        search:
          "const denied = own.filter((c) => c.verdict === 'deny' || c.verdict === 'ask:denied').length;",
        replace: "const denied = own.filter((c) => c.verdict === 'deny').length - 1;",
      },
    ],
  },
  {
    id: 'subagent/usage-tool-calls-not-added',
    tag: 'subagent',
    bug: "a subagent's tool calls are not added to the parent's tool-call count",
    patches: [
      {
        file: 'harness/subagent/spawn.ts',
        search: 'totals.toolCalls += result.usage.toolCalls;',
        replace: '',
      },
    ],
  },
  {
    id: 'subagent/error-escapes',
    tag: 'subagent',
    bug: 'a subagent that ended with model_error is reported as a success',
    patches: [
      {
        file: 'harness/subagent/report.ts',
        search: "if (result.stopReason === 'model_error')",
        replace: "if (result.stopReason === ('never' as string))",
      },
    ],
  },
];
