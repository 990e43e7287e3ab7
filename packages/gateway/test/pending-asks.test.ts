// The pending-ask registry the approvals and clarify questions share: an ask settles once (the
// user's answer, the timeout's, or the turn's end), leaves the registry then, says whose answer
// counts (the asked user, in that chat), and lists a chat's asks oldest first.
import { describe, expect, it } from 'vitest';
import { PendingAsks, whoseAnswer } from '../src/approvals/pending-asks.js';

const who = { platform: 'telegram', chatId: '-100', userId: '42' };
let n = 0;
const registry = () => new PendingAsks<string, { note: string }>({ newId: () => `id${++n}` });
const options = (signal: AbortSignal, timeoutMs = 60_000) => ({
  data: { note: 'x' },
  timeoutMs,
  onTimeout: 'timeout',
  signal,
  onAbort: 'aborted',
});

describe('PendingAsks', () => {
  it('settles once with the first answer, then forgets the ask; onSettled sees it', async () => {
    const asks = registry();
    const settled: string[] = [];
    const { ask, answer } = asks.open(who, {
      ...options(new AbortController().signal),
      onSettled: (a, value) => settled.push(`${a.id}:${value}`),
    });
    expect(asks.get(ask.id)).toBe(ask);
    expect(asks.size).toBe(1);
    expect(ask.settle('yes')).toBe(true);
    expect(ask.settle('no')).toBe(false);
    expect(await answer).toBe('yes');
    expect(ask.settled).toBe('yes');
    expect(asks.get(ask.id)).toBeUndefined();
    expect(asks.size).toBe(0);
    expect(settled).toEqual([`${ask.id}:yes`]);
  });

  it('the timeout settles with its answer', async () => {
    const asks = registry();
    const { answer } = asks.open(who, options(new AbortController().signal, 20));
    expect(await answer).toBe('timeout');
    expect(asks.size).toBe(0);
  });

  it("the turn's end (its signal) settles with the abort answer, at once when already aborted", async () => {
    const asks = registry();
    const turn = new AbortController();
    const { answer } = asks.open(who, options(turn.signal));
    turn.abort();
    expect(await answer).toBe('aborted');
    const ended = asks.open(who, options(AbortSignal.abort()));
    expect(ended.ask.settled).toBe('aborted');
    expect(await ended.answer).toBe('aborted');
    expect(asks.size).toBe(0);
  });

  it("whose answer: the asked user's in that chat; another user's is not theirs; elsewhere or settled: unknown", () => {
    const asks = registry();
    const { ask } = asks.open(who, options(new AbortController().signal));
    expect(whoseAnswer(ask, who)).toBe('theirs');
    expect(whoseAnswer(ask, { ...who, userId: '43' })).toBe('not_yours');
    expect(whoseAnswer(ask, { ...who, chatId: '42' })).toBe('unknown');
    expect(whoseAnswer(ask, { ...who, platform: 'discord' })).toBe('unknown');
    expect(whoseAnswer(undefined, who)).toBe('unknown');
    ask.settle('done');
  });

  it("lists a chat's asks oldest first, and only that chat's", () => {
    const asks = registry();
    const signal = new AbortController().signal;
    const first = asks.open(who, options(signal)).ask;
    asks.open({ ...who, chatId: 'other' }, options(signal));
    const second = asks.open({ ...who, userId: '43', threadId: '7' }, options(signal)).ask;
    expect(asks.inChat('telegram', '-100').map((a) => a.id)).toEqual([first.id, second.id]);
    expect(second.threadId).toBe('7');
    expect(first.threadId).toBeUndefined();
  });
});
