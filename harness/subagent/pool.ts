import type { HarnessConfig } from '../config.ts';
import { rootScope } from '../policy/child-policy.ts';
import type { SubagentGate, SubagentLink } from '../run-types.ts';

/**
 * The concurrency gate of one run's children (`subagent.maxConcurrency`). Each run has its own,
 * so a child waiting for its own children never blocks on a slot its parent holds.
 */
export class SubagentPool implements SubagentGate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  /** @param maxConcurrency children that may run at once (≥ 1) */
  constructor(readonly maxConcurrency: number) {}

  /** Waits for a free slot (first come, first served). */
  async acquire(): Promise<void> {
    if (this.active < this.maxConcurrency) {
      this.active += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Frees a slot, handing it to the next waiting child. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active -= 1;
  }
}

/**
 * The link of a top-level run: depth 0, a fresh pool of `subagent.maxConcurrency`, a spawn count
 * against `subagent.maxTotal`, and the root policy scope over `tools` (the tools it may use).
 */
export function rootLink(config: HarnessConfig, tools: readonly string[]): SubagentLink {
  return {
    depth: 0,
    pool: new SubagentPool(config.subagent.maxConcurrency),
    count: { spawned: 0, maxTotal: config.subagent.maxTotal },
    policy: rootScope(config, tools),
  };
}
