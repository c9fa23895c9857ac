import { describe, expect, it } from 'vitest';
import { conflicts, OverlapScheduler, type PathClaim } from './overlap.ts';

const file = (paths: string[], writes = false): PathClaim => ({ paths, everything: false, writes });
const command: PathClaim = { paths: [], everything: true, writes: true };

describe('overlap serialisation', () => {
  it('reads never conflict; a command conflicts with everything; file writes with paths inside or above them', () => {
    expect(conflicts(file(['/w/a']), file(['/w/a']))).toBe(false);
    expect(conflicts(command, file(['/w/a']))).toBe(true);
    expect(conflicts(file(['/w/docs'], true), file(['/w/docs/a.md']))).toBe(true);
    expect(conflicts(file(['/w/docs/a.md'], true), file(['/w/docs']))).toBe(true);
    expect(conflicts(file(['/w/doc'], true), file(['/w/docs/a.md']))).toBe(false);
  });

  it('a read that overlaps a running command waits for it; one that does not runs at once', async () => {
    const scheduler = new OverlapScheduler();
    const order: string[] = [];
    let release!: () => void;
    const running = scheduler.run(command, async () => {
      order.push('command start');
      await new Promise<void>((r) => (release = r));
      order.push('command end');
    });
    const read = scheduler.run(file(['/w/a']), async () => {
      order.push('read');
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['command start']);
    release();
    await Promise.all([running, read]);
    expect(order).toEqual(['command start', 'command end', 'read']);
    const a = scheduler.run(file(['/w/a']), async () => order.push('a'));
    const b = scheduler.run(file(['/w/b']), async () => order.push('b'));
    await Promise.all([a, b]);
    expect(order.slice(-2).sort()).toEqual(['a', 'b']);
  });
});
