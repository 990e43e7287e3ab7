import { describe, expect, it } from 'vitest';
import { inboxStatus, type PipelineOutcome, settleInbox } from '../src/pipeline/outcome.js';

describe('PipelineOutcome → inbox status (the one mapping)', () => {
  it('maps every outcome; the ones that leave the row for a later owner or the next start mark nothing', () => {
    const cases: [PipelineOutcome, ReturnType<typeof inboxStatus>][] = [
      [{ kind: 'duplicate' }, null],
      [{ kind: 'deferred' }, null],
      [{ kind: 'handed_on' }, null],
      [{ kind: 'cut_off' }, null],
      [{ kind: 'skipped', reason: 'hook_skip' }, 'skipped'],
      [{ kind: 'skipped', reason: 'unauthorized' }, 'skipped'],
      [{ kind: 'skipped', reason: 'not_addressed' }, 'skipped'],
      [{ kind: 'skipped', reason: 'dropped' }, 'skipped'],
      [{ kind: 'refused' }, 'refused'],
      [{ kind: 'answered' }, 'done'],
      [{ kind: 'failed' }, 'failed'],
      [{ kind: 'interrupted' }, 'interrupted'],
    ];
    for (const [outcome, status] of cases) expect(inboxStatus(outcome), outcome.kind).toBe(status);
  });

  it('settleInbox marks only outcomes with a status', () => {
    expect(settleInbox(1, { kind: 'handed_on' })).toEqual([]);
    expect(settleInbox(2, { kind: 'refused' })).toEqual([{ kind: 'inbox.mark', id: 2, status: 'refused' }]);
  });
});
