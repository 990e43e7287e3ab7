// A lane's turn takes a free run slot at once (Semaphore.tryAcquire): no tick between the submit and the
// turn's start; with every slot taken it waits, FIFO, as before.
import { describe, expect, it } from 'vitest';
import { Semaphore } from '../src/sessions/semaphore.js';
import { SessionLanes } from '../src/sessions/session-lanes.js';

describe('run slots', () => {
  it('tryAcquire takes a free slot, returns null when none is free; a release hands the slot to the first waiter', async () => {
    const s = new Semaphore(1);
    const first = s.tryAcquire();
    expect(first).not.toBeNull();
    expect(s.tryAcquire()).toBeNull();
    const order: string[] = [];
    const a = s.acquire().then((release) => {
      order.push('a');
      return release;
    });
    const b = s.acquire().then((release) => {
      order.push('b');
      release();
    });
    first?.();
    first?.(); // a second call releases nothing
    const releaseA = await a;
    expect(order).toEqual(['a']);
    expect(s.tryAcquire()).toBeNull(); // a holds it, b waits
    releaseA();
    await b;
    expect(order).toEqual(['a', 'b']);
    expect(s.tryAcquire()).not.toBeNull();
  });

  it("a submit with a free slot starts the turn before it returns; the next session's turn waits for a slot", async () => {
    const started: string[] = [];
    const gates: (() => void)[] = [];
    const lanes = new SessionLanes<string>({
      maxConcurrent: 1,
      withText: (_item, text) => text,
      textOf: (item) => item,
      runner: async (item) => {
        started.push(item);
        await new Promise<void>((resolve) => gates.push(resolve));
      },
    });
    expect(lanes.submit('s1', 'a', 'queue')).toBe('started');
    expect(started).toEqual(['a']);
    expect(lanes.submit('s2', 'b', 'queue')).toBe('started');
    expect(started).toEqual(['a']);
    gates.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b']);
    gates.shift()?.();
    await lanes.idle();
  });
});
