import { describe, expect, it } from 'vitest';
import { event, fixtureRun, golden } from './fixtures.test-helpers.ts';

/** A loop that warned, then stopped, with one subagent (scope `t1`) that ran to its own end. */
const events = [
  event('run_start', { seq: 0 }),
  event('subagent_start', { seq: 1, callId: 't1' }),
  event('run_start', { seq: 2, scope: ['t1'] }),
  event('run_end', { seq: 3, scope: ['t1'], stopReason: 'final_answer' }),
  event('subagent_end', { seq: 4, callId: 't1' }),
  event('loop_warning', { seq: 5, callId: 'c3', count: 4, stop: false }),
  event('loop_warning', { seq: 6, callId: 'c4', count: 5, stop: true }),
  event('run_end', { seq: 7, stopReason: 'repeated_tool_call' }),
];
const run = fixtureRun({ events, stopReason: 'repeated_tool_call' });

describe('events (object form)', () => {
  it('sequence: in order, with fields', async () => {
    expect(
      await golden(
        'events',
        { sequence: ['loop_warning', { type: 'run_end', stopReason: 'repeated_tool_call' }] },
        run,
      ),
    ).toEqual([
      {
        name: 'events.sequence',
        pass: true,
        reason: 'events in order: loop_warning → {"type":"run_end","stopReason":"repeated_tool_call"}',
      },
    ]);
  });

  it('sequence: names the item that broke, where it looked, and where that type was', async () => {
    expect(await golden('events', { sequence: ['run_end', 'loop_warning'] }, run)).toEqual([
      {
        name: 'events.sequence',
        pass: false,
        reason: 'in the top-level run, loop_warning (item 2) not found after seq 7; loop_warning at seq 5, 6',
      },
    ]);
    expect(await golden('events', { sequence: ['compaction'] }, run)).toEqual([
      {
        name: 'events.sequence',
        pass: false,
        reason: 'in the top-level run, compaction (item 1) not found; no compaction event at all',
      },
    ]);
  });

  it('count: the top-level run by default, so the subagent run_end does not count', async () => {
    expect(await golden('events', { count: { run_end: 1, loop_warning: { min: 1, max: 1 } } }, run)).toEqual([
      { name: 'events.count.run_end', pass: true, reason: 'run_end: exactly 1 in the top-level run' },
      {
        name: 'events.count.loop_warning',
        pass: false,
        reason: 'loop_warning: expected at least 1 and at most 1, observed 2 in the top-level run',
      },
    ]);
    expect(await golden('events', { count: { run_end: 1 }, scope: 'all' }, run)).toEqual([
      {
        name: 'events.count.run_end',
        pass: false,
        reason: 'run_end: expected exactly 1, observed 2 in the whole event stream',
      },
    ]);
  });

  it('scope each: exactly one run_end per scope; a scope missing one is named', async () => {
    expect(await golden('events', { count: { run_end: 1 }, scope: 'each' }, run)).toEqual([
      { name: 'events.count.run_end', pass: true, reason: 'run_end: exactly 1 in each of 2 scopes' },
    ]);
    const lost = fixtureRun({ events: events.filter((e) => e.seq !== 3) });
    expect(await golden('events', { count: { run_end: 1 }, scope: 'each' }, lost)).toEqual([
      {
        name: 'events.count.run_end',
        pass: false,
        reason: 'run_end: expected exactly 1, observed 0 in the scope t1',
      },
    ]);
  });

  it('scope of a task call id: that subagent alone', async () => {
    expect(
      await golden('events', { present: ['run_start'], absent: ['loop_warning'], scope: 't1' }, run),
    ).toEqual([
      { name: 'events.run_start', pass: true, reason: 'event run_start seen once in the scope t1' },
      {
        name: 'events.absent.loop_warning',
        pass: true,
        reason: 'event loop_warning seen 0 times in the scope t1',
      },
    ]);
    expect(await golden('events', { absent: ['loop_warning'] }, run)).toEqual([
      {
        name: 'events.absent.loop_warning',
        pass: false,
        reason: 'event loop_warning seen 2 times in the top-level run',
      },
    ]);
  });
});

describe('events (list form) and eventsAbsent', () => {
  it('a type seen anywhere is present', async () => {
    expect(await golden('events', ['loop_warning', 'compaction'], run)).toEqual([
      {
        name: 'events.loop_warning',
        pass: true,
        reason: 'event loop_warning seen 2 times in the whole event stream',
      },
      {
        name: 'events.compaction',
        pass: false,
        reason: 'event compaction seen 0 times in the whole event stream',
      },
    ]);
  });

  it('eventsAbsent counts the whole stream', async () => {
    expect(await golden('eventsAbsent', ['compaction', 'subagent_end'], run)).toEqual([
      { name: 'eventsAbsent.compaction', pass: true, reason: 'event compaction seen 0 times' },
      { name: 'eventsAbsent.subagent_end', pass: false, reason: 'event subagent_end seen once' },
    ]);
  });
});
