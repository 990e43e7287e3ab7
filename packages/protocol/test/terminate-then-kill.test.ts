// The one SIGTERM-then-SIGKILL (the terminal tool's process groups, `hermes gateway stop`).
import { terminateThenKill } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';

/** A process that exits `exitsAfterPolls` polls after SIGTERM (never, when null). */
function fakeProcess(options: { running: boolean; exitsAfterPolls: number | null }) {
  const sent: string[] = [];
  let polls = 0;
  let running = options.running;
  let terminated = false;
  return {
    sent,
    target: {
      signal(signal: 'SIGTERM' | 'SIGKILL') {
        if (!running) return false;
        sent.push(signal);
        if (signal === 'SIGKILL') running = false;
        else terminated = true;
        return true;
      },
      alive() {
        if (terminated && options.exitsAfterPolls !== null && ++polls >= options.exitsAfterPolls) running = false;
        return running;
      },
    },
  };
}

const instant = { graceMs: 100, pollMs: 10, sleep: async () => {} };

describe('terminateThenKill', () => {
  it('says gone when nothing runs, and sends nothing', async () => {
    const p = fakeProcess({ running: false, exitsAfterPolls: 1 });
    expect(await terminateThenKill(p.target, instant)).toBe('gone');
    expect(p.sent).toEqual([]);
  });

  it('stops at SIGTERM when the process goes within the grace period', async () => {
    const p = fakeProcess({ running: true, exitsAfterPolls: 3 });
    expect(await terminateThenKill(p.target, instant)).toBe('terminated');
    expect(p.sent).toEqual(['SIGTERM']);
  });

  it('sends SIGKILL after the grace period, polling graceMs / pollMs times', async () => {
    const p = fakeProcess({ running: true, exitsAfterPolls: null });
    const sleeps: number[] = [];
    const outcome = await terminateThenKill(p.target, { ...instant, sleep: async (ms) => void sleeps.push(ms) });
    expect(outcome).toBe('killed');
    expect(p.sent).toEqual(['SIGTERM', 'SIGKILL']);
    expect(sleeps).toEqual(Array(10).fill(10));
  });
});
