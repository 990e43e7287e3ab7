/**
 * What became of a message at the stage that finished it, and the ONE mapping from that outcome
 * to the inbox row's status. Every inbox mark the pipeline makes goes through `inboxStatus`.
 */
import type { InboxStatus, StoreWrite } from '@hermes/store';

export type SkipReason = 'hook_skip' | 'unauthorized' | 'not_addressed' | 'dropped';

export type PipelineOutcome =
  /** redelivered: processed once already (nothing to mark) */
  | { kind: 'duplicate' }
  /** accepted while stopping: stays in the inbox for the next start (nothing to mark) */
  | { kind: 'deferred' }
  /** the pipeline passed it to a later owner (a lane, a queued command): that owner marks it */
  | { kind: 'handed_on' }
  /** cut off by shutdown: stays pending so the next start redoes it once (nothing to mark) */
  | { kind: 'cut_off' }
  /** a stage decided not to answer */
  | { kind: 'skipped'; reason: SkipReason }
  /** a stranger already answered within the hour (or no room for a new code) */
  | { kind: 'refused' }
  /** answered (a reply, a command's answer, a pairing code, a silent answer, resent chunks) */
  | { kind: 'answered' }
  /** the turn failed or hit its iteration limit: the failure reply was sent */
  | { kind: 'failed' }
  /** the turn was interrupted (/stop, a new message), or given up on after restarts */
  | { kind: 'interrupted' };

/** The inbox status an outcome leaves, or null when the row stays as it is. */
export function inboxStatus(outcome: PipelineOutcome): InboxStatus | null {
  switch (outcome.kind) {
    case 'duplicate':
    case 'deferred':
    case 'handed_on':
    case 'cut_off':
      return null;
    case 'skipped':
      return 'skipped';
    case 'refused':
      return 'refused';
    case 'answered':
      return 'done';
    case 'failed':
      return 'failed';
    case 'interrupted':
      return 'interrupted';
  }
}

/** The write that marks the inbox row per the outcome (none for outcomes that leave it). */
export function settleInbox(inboxId: number, outcome: PipelineOutcome): StoreWrite[] {
  const status = inboxStatus(outcome);
  return status === null ? [] : [{ kind: 'inbox.mark', id: inboxId, status }];
}
