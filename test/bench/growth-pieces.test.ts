// The growth bench's measuring loop on a fake gateway (instant replies): the warm-up runs on fresh
// chats before any pool chat is touched (the first version measured a cold process at 64 chats:
// 2 to 3 times the CPU per message of a warm one), and the main thread's run-queue reader.
import { describe, expect, it } from 'vitest';
import { GROWTH_CONCURRENCY, type GrowthTarget, growthPools, measurePoints, WARMUP_MESSAGES } from './growth.js';
import { mainThreadSched } from './growth-runqueue.js';
import type { ObservedReply } from './pipeline-load.js';
import { MODEL_ANSWER } from './rig.js';

/** A gateway that answers every message at once with the model answer, recording the chats in order. */
function fakeTarget(rss: number[]): { target: GrowthTarget; sent: number[] } {
  const sent: number[] = [];
  const waiters = new Map<number, (reply: ObservedReply) => void>();
  let cpu = 0;
  const target: GrowthTarget = {
    system: {
      traffic: {
        send(chat) {
          sent.push(chat);
          cpu += 1;
          const wake = waiters.get(chat);
          waiters.delete(chat);
          queueMicrotask(() => wake?.({ at: performance.now(), text: MODEL_ANSWER }));
        },
        next: (chat) => new Promise((resolve) => waiters.set(chat, resolve)),
        newChat: () => {
          throw new Error('the growth bench picks its own chats');
        },
        describe: (chat) => `chat ${chat}`,
      },
      takeApiCalls: () => 0,
      proc: { pid: process.pid, cpuMs: () => cpu, rssMb: () => rss.shift() ?? 0 },
    },
    model: { takeRequestCount: async () => 0 },
  };
  return { target, sent };
}

describe('the growth bench', () => {
  it('warms the gateway up on fresh chats before the first message of any measured pool', async () => {
    const pools = growthPools();
    const poolChats = new Set([...pools.values()].flat());
    const { target, sent } = fakeTarget([150, 150 + 345 / 1024]);
    const points = await measurePoints(target, 1000, pools);
    const firstPoolMessage = sent.findIndex((chat) => poolChats.has(chat));
    expect(WARMUP_MESSAGES).toBeGreaterThanOrEqual(2000);
    expect(firstPoolMessage).toBe(WARMUP_MESSAGES);
    expect(sent.slice(0, WARMUP_MESSAGES).every((chat) => !poolChats.has(chat))).toBe(true);
    // every pool chat is then used, each level on its own chats
    expect(new Set(sent.slice(WARMUP_MESSAGES))).toEqual(poolChats);
    expect(points.map((p) => p.concurrency)).toEqual([...GROWTH_CONCURRENCY]);
    // RSS per warm session: the growth after the warm-up over the 345 seeded chats (1 KB each here)
    expect(points[0]?.rssKbPerSession).toBeCloseTo(1, 5);
    expect(points[1]?.round.msgPerSec).toBeGreaterThan(0);
  });
});

describe('mainThreadSched', () => {
  it("reads a process's main thread time on a CPU and in the run queue", () => {
    const sched = mainThreadSched(process.pid);
    expect(sched).not.toBeNull();
    expect(sched?.runMs).toBeGreaterThan(0);
    expect(sched?.waitMs).toBeGreaterThanOrEqual(0);
    expect(mainThreadSched(2 ** 30)).toBeNull();
  });
});
