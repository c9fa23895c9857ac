/**
 * Loop-detection faults (`harness/loop/loop-detector.ts`, the loop key of
 * `harness/tools/assemble.ts`, the guard and the outcome record of `harness/loop/dispatch.ts`).
 * Each is a bug a developer makes when writing a doom-loop guard; the public threads behind them:
 * macanderson/stella#359 (inputs only, polling aborted), anomalyco/opencode#47759 (periodic
 * cycles missed), HKUDS/nanobot#3077 (identity from sorted arguments).
 */
import type { Fault } from '../types.ts';

export const LOOP_FAULTS: Fault[] = [
  {
    id: 'loop/names-only',
    tag: 'loop',
    bug: 'the loop key is the tool name alone, so reading different pages of one file is a loop',
    patches: [
      {
        file: 'harness/tools/assemble.ts',
        search:
          "const loopKey = `${name}\\u0000${parsed.ok ? canonicalJson(parsed.args) : String(typeof rawArguments === 'string' ? rawArguments : canonicalJson(rawArguments))}`;",
        replace: 'const loopKey = name;',
      },
    ],
  },
  {
    id: 'loop/raw-argument-text',
    tag: 'loop',
    bug: 'the loop key uses the argument text as sent, so reordered keys or extra spaces escape the detector',
    patches: [
      {
        file: 'harness/tools/assemble.ts',
        search: '${parsed.ok ? canonicalJson(parsed.args) :',
        replace:
          "${parsed.ok ? (typeof rawArguments === 'string' ? rawArguments : canonicalJson(rawArguments)) :",
      },
    ],
  },
  {
    id: 'loop/outcome-never-resets',
    tag: 'loop',
    bug: 'a changed outcome no longer resets the count, so polling a job that progresses is stopped',
    patches: [
      {
        file: 'harness/loop/loop-detector.ts',
        search: 'if (entry.text !== undefined && (entry.ok !== ok || entry.text !== text)) entry.count = 1;',
        replace: '',
      },
    ],
  },
  {
    id: 'loop/outcome-is-ok-flag',
    tag: 'loop',
    bug: 'the outcome recorded for a successful call is "ok" without its output, so progress looks like repetition',
    patches: [
      {
        file: 'harness/loop/dispatch.ts',
        search: 'result.ok ? result.data :',
        replace: "result.ok ? 'ok' :",
      },
    ],
  },
  {
    id: 'loop/stop-off-by-one',
    tag: 'loop',
    bug: 'the stop threshold compares with > instead of >=, so the run stops one repeat late',
    patches: [
      {
        file: 'harness/loop/loop-detector.ts',
        search: 'if (entry.count >= this.limits.stopAt)',
        replace: 'if (entry.count > this.limits.stopAt)',
      },
    ],
  },
  {
    id: 'loop/warning-still-runs',
    tag: 'loop',
    bug: 'the warn threshold is never acted on: a repeat below the stop threshold runs again',
    patches: [
      {
        file: 'harness/loop/loop-detector.ts',
        search: "if (entry.count >= this.limits.warnAt) return { kind: 'warn', count: entry.count };",
        replace: "if (entry.count >= this.limits.warnAt) return { kind: 'run' };",
      },
    ],
  },
  {
    id: 'loop/stop-downgraded-to-warning',
    tag: 'loop',
    bug: 'the stop verdict is returned as a warning, so a model that never changes course runs until another budget ends it',
    patches: [
      {
        file: 'harness/loop/loop-detector.ts',
        search: "return { kind: 'stop', count: entry.count };",
        replace: "return { kind: 'warn', count: entry.count };",
      },
    ],
  },
  {
    id: 'loop/consecutive-only',
    tag: 'loop',
    bug: 'any different call forgets every other count, so a loop interleaved with another call (A B A B …) is never seen',
    patches: [
      {
        file: 'harness/loop/loop-detector.ts',
        search: 'const entry = this.entries.get(key);\n    if (!entry) {',
        replace:
          'for (const other of [...this.entries.keys()]) if (other !== key) this.entries.delete(other);\n    const entry = this.entries.get(key);\n    if (!entry) {',
      },
    ],
  },
];
