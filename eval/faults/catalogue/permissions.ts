/**
 * Permission faults (`harness/policy/policy.ts`, `approval.ts`, the approval and deny handling of
 * the dispatcher): rule order, the strictest part, modes, grants, and denials that do not stop.
 * Public threads: the handed cases E01–E04 (anthropics/claude-code#16180, #37662 and others:
 * a chain run after an allowed prefix, a deny rule missed), opencode's `permission/next.ts`
 * (last match wins), anomalyco/opencode#26700 (deny inheritance).
 */
import type { Fault } from '../types.ts';

export const PERMISSIONS_FAULTS: Fault[] = [
  {
    id: 'permissions/first-match-wins',
    tag: 'permissions',
    bug: 'bash rules are searched from the first, so the earliest matching rule decides instead of the last',
    patches: [
      {
        file: 'harness/policy/policy.ts',
        search: 'for (let i = rules.length - 1; i >= 0; i -= 1)',
        replace: 'for (let i = 0; i < rules.length; i += 1)',
      },
    ],
  },
  {
    id: 'permissions/first-part-decides',
    tag: 'permissions',
    bug: 'the first part of a call decides, so a chain whose first command is allowed runs every command after it',
    patches: [
      {
        file: 'harness/policy/policy.ts',
        search: 'if (STRICTNESS[part.action] > STRICTNESS[decisive.action]) decisive = part;',
        replace: '',
      },
    ],
  },
  {
    id: 'permissions/outside-asks',
    tag: 'permissions',
    bug: 'a path outside the workspace asks instead of being denied, so an approver can let it through',
    patches: [
      {
        file: 'harness/policy/policy.ts',
        search: "if (!p.inside) return partOf(p, p.absolute, 'deny', 'workspace:outside');",
        replace: "if (!p.inside) return partOf(p, p.absolute, 'ask', 'workspace:outside');",
      },
    ],
  },
  {
    id: 'permissions/sensitive-paths-ignored',
    tag: 'permissions',
    bug: 'sensitive paths inside the workspace (git hooks, CI files, credentials) no longer ask',
    patches: [
      {
        file: 'harness/policy/policy.ts',
        search: 'const sensitive = sensitiveMatch(p.relative, p.access, config.permissions.sensitivePaths);',
        replace: 'const sensitive = undefined as ReturnType<typeof sensitiveMatch>;',
      },
    ],
  },
  {
    id: 'permissions/plan-mode-writes',
    tag: 'permissions',
    bug: 'plan mode no longer denies calls that are not reads',
    patches: [
      {
        file: 'harness/policy/policy.ts',
        search: "if (permissions.mode === 'plan' && input.effect !== 'read' && !stateOnly)",
        replace: "if (permissions.mode === 'plan' && input.effect === ('never' as string) && !stateOnly)",
      },
    ],
  },
  {
    id: 'permissions/headless-asks-approver',
    tag: 'permissions',
    bug: 'headless mode hands asks to the approver instead of denying them',
    patches: [
      {
        file: 'harness/loop/preflight.ts',
        search: "if (mode === 'headless' || mode === 'plan') return emit(false, 'headless');",
        replace: "if (mode === 'plan') return emit(false, 'headless');",
      },
    ],
  },
  {
    id: 'permissions/write-effect-allowed',
    tag: 'permissions',
    bug: 'a file write with no path rule is allowed instead of taking permissions.effects.write',
    patches: [
      {
        file: 'harness/policy/policy.ts',
        search: 'const action = matched ? matched.action : config.permissions.effects[p.access];',
        replace:
          "const action = matched ? matched.action : p.access === 'write' ? ('allow' as const) : config.permissions.effects[p.access];",
      },
    ],
  },
  {
    id: 'permissions/grant-covers-whole-tool',
    tag: 'permissions',
    bug: 'a session grant covers every later call of the tool, not only those of its shape',
    patches: [
      {
        file: 'harness/policy/approval.ts',
        search: 'return asking.length > 0 && asking.every((p) => coversPart(shape, p));',
        replace: 'return asking.length > 0 && shape.length > 0;',
      },
    ],
  },
  {
    id: 'permissions/on-deny-stop-ignored',
    tag: 'permissions',
    bug: 'permissions.onDeny "stop" does not stop the run',
    patches: [
      {
        file: 'harness/loop/preflight.ts',
        search: "context.config.permissions.onDeny === 'stop'",
        replace: "context.config.permissions.onDeny === ('never' as string)",
      },
    ],
  },
  {
    id: 'permissions/deny-spellings-missed',
    tag: 'permissions',
    bug: 'a deny rule is matched against the command as written only, so another spelling of its flags slips past',
    patches: [
      {
        file: 'harness/policy/policy.ts',
        search: "if (part.action === 'deny' || !rules.some((r) => r.action === 'deny')) return part;",
        replace: 'return part;',
      },
    ],
  },
  {
    id: 'permissions/unscoped-grant-kept',
    tag: 'permissions',
    bug: 'a grant whose shape is only wildcards is kept, granting the tool as a whole for the session',
    patches: [
      {
        file: 'harness/policy/approval.ts',
        search: 'return /[^*?\\s/]/.test(shape);',
        replace: 'return shape.length > 0;',
      },
    ],
  },
];
