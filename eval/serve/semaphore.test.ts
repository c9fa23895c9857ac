import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { semaphore } from './semaphore.ts';

describe('semaphore', () => {
  it('never has more than `limit` holders, serves every waiter in order, and ignores a second release', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 12 }),
        async (limit, holds) => {
          const gate = semaphore(limit);
          let active = 0;
          let peak = 0;
          const order: number[] = [];
          await Promise.all(
            holds.map(async (ticks, i) => {
              const release = await gate.acquire();
              order.push(i);
              active += 1;
              peak = Math.max(peak, active);
              for (let t = 0; t < ticks; t++) await Promise.resolve();
              active -= 1;
              release();
              release();
            }),
          );
          expect(peak).toBeLessThanOrEqual(limit);
          expect(order).toEqual(holds.map((_, i) => i));
        },
      ),
    );
  });
});
