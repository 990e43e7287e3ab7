// The kit's approval buttons and presses: every answer a button whose data the gateway can parse
// back, and a press handed to the sink (or the stale-button text when it cannot be).
import { type ActionPress, type ApprovalPress, actionButtonData, type InboundSink } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { approvalButtons, pressApproval, STALE_BUTTON_TEXT } from '../../src/kit/approval-buttons.js';

function sink(presses: ApprovalPress[]): InboundSink {
  return {
    accept: async () => {},
    approvalPress: async (press) => {
      presses.push(press);
      return { kind: 'accepted', text: `got ${press.answer}` };
    },
  };
}

describe('approval buttons', () => {
  it('one button per answer, in order, each carrying its approval and answer back', async () => {
    const buttons = approvalButtons('a1');
    expect(buttons.map((b) => b.answer)).toEqual(['once', 'session', 'always', 'deny']);
    expect(new Set(buttons.map((b) => b.data)).size).toBe(4);
    const presses: ApprovalPress[] = [];
    const deny = buttons.find((b) => b.answer === 'deny');
    expect(await pressApproval(sink(presses), 'telegram', deny?.data, 'u1', 'c1')).toBe('got deny');
    expect(presses).toEqual([{ platform: 'telegram', approvalId: 'a1', answer: 'deny', userId: 'u1', chatId: 'c1' }]);
  });

  it('data that is no button of ours, or a press without a chat, is answered as stale and not handed on', async () => {
    const presses: ApprovalPress[] = [];
    expect(await pressApproval(sink(presses), 'slack', 'something-else', 'u1', 'c1')).toBe(STALE_BUTTON_TEXT);
    expect(await pressApproval(sink(presses), 'slack', approvalButtons('a2')[0]?.data, 'u1', undefined)).toBe(
      STALE_BUTTON_TEXT,
    );
    expect(presses).toEqual([]);
  });

  it('an action button (hact:) goes to actionPress with its action and argument; without actionPress it is stale', async () => {
    const actions: ActionPress[] = [];
    const withActions: InboundSink = {
      accept: async () => {},
      actionPress: async (press) => {
        actions.push(press);
        return { text: `did ${press.action}` };
      },
    };
    const data = actionButtonData('cron-cancel', 'job_1');
    expect(await pressApproval(withActions, 'discord', data, 'u1', 'c1')).toBe('did cron-cancel');
    expect(actions).toEqual([{ platform: 'discord', action: 'cron-cancel', arg: 'job_1', userId: 'u1', chatId: 'c1' }]);
    expect(await pressApproval(sink([]), 'discord', data, 'u1', 'c1')).toBe(STALE_BUTTON_TEXT);
  });
});
