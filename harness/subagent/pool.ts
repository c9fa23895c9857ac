/**
 * The concurrency gate of one run's children (`subagent.maxConcurrency`). Each run has its own,
 * so a child waiting for its own children never blocks on a slot its parent holds.
 */
export class SubagentPool {
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
