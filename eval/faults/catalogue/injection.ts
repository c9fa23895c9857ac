/**
 * Prompt-injection faults (`harness/policy/taint.ts`, the taint part of `harness/policy/policy.ts`,
 * taint recording in the loop, the escaping of tool output in the dispatcher, approvals that
 * must not cover a taint ask): each lets text from a web page, an issue or a tool error steer an
 * irreversible or network-reaching call. Public threads: the handed cases F02
 * (OpenHands/software-agent-sdk#2543) and F03 (google/site-kit-wp#12499); AgentDojo
 * (Debenedetti et al., NeurIPS 2024) for the attack model.
 */
import type { Fault } from '../types.ts';

export const INJECTION_FAULTS: Fault[] = [
  {
    id: 'injection/taint-never-recorded',
    tag: 'injection',
    bug: 'content from untrusted tools never taints the run',
    patches: [
      {
        file: 'harness/policy/taint.ts',
        search: 'if (!config.taint.enabled) return false;',
        replace: 'if (config.taint.enabled || !config.taint.enabled) return false;',
      },
    ],
  },
  {
    id: 'injection/error-text-not-tainting',
    tag: 'injection',
    bug: 'only successful results of untrusted tools taint the run, not their error text',
    patches: [
      {
        file: 'harness/loop/run.ts',
        search: 'const executed = outcome.results.filter((r) => r.executed);',
        replace: 'const executed = outcome.results.filter((r) => r.executed && r.result.ok);',
      },
    ],
  },
  {
    id: 'injection/taint-snapshot',
    tag: 'injection',
    bug: 'the dispatcher gets a copy of the taint taken when the run starts, so content that taints it later is never seen',
    patches: [
      {
        file: 'harness/loop/run.ts',
        search: 'taintedBy: state.taint.sources,',
        replace: 'taintedBy: [...state.taint.sources],',
      },
    ],
  },
  {
    id: 'injection/auto-approves-taint',
    tag: 'injection',
    bug: 'auto mode approves an ask that the taint says needs a human',
    patches: [
      {
        file: 'harness/loop/preflight.ts',
        search: "if (mode === 'auto' && !decision.requiresHuman) return emit(true, 'auto');",
        replace: "if (mode === 'auto') return emit(true, 'auto');",
      },
    ],
  },
  {
    id: 'injection/special-tokens-not-escaped',
    tag: 'injection',
    bug: 'chat-template special tokens (<|im_start|>) in tool output are passed on as they are',
    patches: [
      {
        file: 'harness/policy/taint.ts',
        search: '.replace(SPECIAL_TOKEN, (_, name: string) => `&lt;|${name}|&gt;`)',
        replace: '',
      },
    ],
  },
  {
    id: 'injection/tags-not-escaped',
    tag: 'injection',
    bug: 'tool output is passed on without escaping reserved tags and harness markers',
    patches: [
      {
        file: 'harness/loop/execute.ts',
        search: 'const escapeTags = context.config.taint.enabled;',
        replace: 'const escapeTags = false;',
      },
    ],
  },
  {
    id: 'injection/markers-not-escaped',
    tag: 'injection',
    bug: 'the [harness] and [system] markers are left as they are in tool output',
    patches: [
      {
        file: 'harness/policy/taint.ts',
        search: '.replace(RESERVED_MARKER, (_, name: string) => `&#91;${name}&#93;`);',
        replace: ';',
      },
    ],
  },
  {
    id: 'injection/untrusted-tools-setting-ignored',
    tag: 'injection',
    bug: 'tools listed in taint.untrustedTools are not treated as untrusted',
    patches: [
      {
        file: 'harness/policy/taint.ts',
        search: 'return tool.untrusted === true || config.taint.untrustedTools.includes(tool.name);',
        replace: 'return tool.untrusted === true;',
      },
    ],
  },
  {
    id: 'injection/on-tainted-deny-asks',
    tag: 'injection',
    bug: 'taint.onTainted "deny" is treated as "ask", so an approver can let the call through',
    patches: [
      {
        file: 'harness/policy/policy.ts',
        search: 'action: config.taint.onTainted,',
        replace: "action: 'ask' as const,",
      },
    ],
  },
];
