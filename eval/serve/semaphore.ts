/** A counting semaphore for the pass-through endpoint's bounded concurrency (`./passthrough.ts`). */

/**
 * At most `limit` holders at once (at least 1), served first come first served; `acquire`
 * resolves with the release function, which does nothing when called again.
 */
export function semaphore(limit: number): { acquire(): Promise<() => void> } {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    active -= 1;
    const next = waiting.shift();
    if (next) {
      active += 1;
      next();
    }
  };
  return {
    acquire: () =>
      new Promise((resolve) => {
        if (active < Math.max(1, limit)) {
          active += 1;
          resolve(once(release));
        } else waiting.push(() => resolve(once(release)));
      }),
  };
}

function once(fn: () => void): () => void {
  let called = false;
  return () => {
    if (!called) {
      called = true;
      fn();
    }
  };
}
