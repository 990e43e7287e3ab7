// Only the user a dangerous command was put to can approve it, in the chat it was asked in, on
// the platform it was asked on; a forged, stale or repeated press approves nothing.
import { ChatApprovals } from '@hermes/gateway';
import type { ApprovalChoice, ApprovalPress, MessageEvent, PlatformAdapter } from '@hermes/protocol';
import { silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.js';

const request = {
  command: 'rm -rf /srv/data',
  description: 'recursive delete',
  patternKey: 'rm_rf',
  patternKeys: ['rm_rf'],
};

function event(userId = 'u1', chatId = 'g1'): MessageEvent {
  return {
    kind: 'text',
    platform: 'tg',
    messageId: `${chatId}:1`,
    text: 'clean up',
    source: { platform: 'tg', chatId, chatType: 'group', userId, userName: 'Ada' },
    internal: false,
    receivedAt: 0,
    raw: null,
  };
}

/** A gateway's approvals with a platform that shows buttons and records the prompt's approval id. */
function setUp(timeoutMs = 60_000) {
  const shown: string[] = [];
  const adapter = {
    askApproval: async (prompt: { approvalId: string }) => {
      shown.push(prompt.approvalId);
      return { ok: true as const, messageIds: ['m1'] };
    },
    closeApproval: async () => {},
  } as unknown as PlatformAdapter;
  const approvals = new ChatApprovals({
    hooks: { invoke: async () => ({}) as never },
    adapters: new Map([['tg', adapter]]),
    sendText: async () => {},
    timeoutMs,
    logger: silentLogger,
  });
  return { approvals, shown };
}

async function ask(
  approvals: ChatApprovals,
  shown: string[],
): Promise<{ id: string; choice: Promise<ApprovalChoice> }> {
  const choice = approvals.forTurn('tg:g1:u1', event(), new AbortController().signal)(request);
  await waitFor(() => shown.length > 0, { what: 'the approval prompt shown' });
  return { id: shown.at(-1) ?? '', choice };
}

const press = (id: string, over: Partial<ApprovalPress> = {}): ApprovalPress => ({
  platform: 'tg',
  approvalId: id,
  answer: 'once',
  userId: 'u1',
  chatId: 'g1',
  ...over,
});

describe('chat approvals: who may answer', () => {
  it('another user, another chat, another platform or a forged id approve nothing; the asker does, once', async () => {
    const { approvals, shown } = setUp();
    const { id, choice } = await ask(approvals, shown);
    expect(approvals.press(press(id, { userId: 'u2' })).kind).toBe('not_yours');
    expect(approvals.press(press(id, { chatId: 'g2' })).kind).toBe('unknown');
    expect(approvals.press(press(id, { platform: 'discord' })).kind).toBe('unknown');
    expect(approvals.press(press('deadbeef0000')).kind).toBe('unknown');
    expect(approvals.answerText('tg', 'g1', 'u2', 'always')).toMatch(/^Not yours/);
    expect(approvals.answerText('tg', 'g2', 'u1', 'once')).toBe('Nothing is waiting for approval here.');
    expect(approvals.waiting).toBe(1);
    expect(approvals.press(press(id, { answer: 'deny' })).kind).toBe('accepted');
    expect(await choice).toBe('deny');
    // a second press (a double tap, a replayed update) changes nothing
    expect(approvals.press(press(id, { answer: 'always' })).kind).toBe('unknown');
    expect(approvals.waiting).toBe(0);
  });

  it('"always" from one user is not "always" for another user of the same chat', async () => {
    const { approvals, shown } = setUp();
    const first = await ask(approvals, shown);
    approvals.press(press(first.id, { answer: 'always' }));
    expect(await first.choice).toBe('always');
    // the same user again: remembered, not asked
    expect(await approvals.forTurn('tg:g1:u1', event(), new AbortController().signal)(request)).toBe('always');
    expect(shown).toHaveLength(1);
    // another user: asked
    const other = approvals.forTurn('tg:g1:u2', event('u2'), new AbortController().signal)(request);
    await waitFor(() => shown.length > 1, { what: "the other user's approval prompt" });
    expect(shown).toHaveLength(2);
    approvals.press(press(shown[1] ?? '', { userId: 'u2', answer: 'deny' }));
    expect(await other).toBe('deny');
  });

  it("an admin of the bot may answer another user's approval with /approve or /deny; a user may not", async () => {
    const { approvals, shown } = setUp();
    const { choice } = await ask(approvals, shown);
    expect(approvals.answerText('tg', 'g1', 'u2', 'once', false)).toMatch(/^Not yours/);
    expect(approvals.waiting).toBe(1);
    expect(approvals.answerText('tg', 'g1', 'u2', 'deny', true)).not.toMatch(/^Not yours/);
    expect(await choice).toBe('deny');
    expect(approvals.waiting).toBe(0);
  });

  it('an unanswered approval is a timeout (denied); the turn ending first denies it', async () => {
    const { approvals, shown } = setUp(50);
    const { choice } = await ask(approvals, shown);
    expect(await choice).toBe('timeout');
    const aborted = new AbortController();
    const pending = approvals.forTurn('tg:g1:u9', event('u9'), aborted.signal)({ ...request, patternKeys: ['x'] });
    aborted.abort();
    expect(await pending).toBe('deny');
  });
});

describe('chat approvals: what a session keeps', () => {
  it('a turn that asks nothing keeps nothing (not its event); the session that asks keeps its gate and "this session" answers', async () => {
    const { approvals, shown } = setUp();
    for (let i = 0; i < 500; i++)
      approvals.forTurn(`tg:g${i}:u${i}`, event(`u${i}`, `g${i}`), new AbortController().signal);
    expect(approvals.gatedSessions).toBe(0);
    const first = await ask(approvals, shown);
    expect(approvals.gatedSessions).toBe(1);
    expect(approvals.press(press(first.id, { answer: 'session' })).kind).toBe('accepted');
    expect(await first.choice).toBe('session');
    // the next turn of that session: its "this session" answer holds, no prompt shown
    const prompts = shown.length;
    const again = await approvals.forTurn('tg:g1:u1', event(), new AbortController().signal)(request);
    expect(again).toBe('session');
    expect(shown.length).toBe(prompts);
  });
});
