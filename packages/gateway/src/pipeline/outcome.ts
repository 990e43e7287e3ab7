/**
 * What became of a message at the stage that finished it, and the ONE mapping from that outcome
 * to the inbox row's status. Every inbox mark the pipeline makes goes through `inboxStatus`.
 */
import type { InboxPort } from '../ports.js';

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

export type InboxStatus = Parameters<InboxPort['mark']>[1];

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

/** Marks the inbox row per the outcome (no-op for outcomes that leave it). */
export function settleInbox(inbox: Pick<InboxPort, 'mark'>, inboxId: number, outcome: PipelineOutcome): void {
  const status = inboxStatus(outcome);
  if (status !== null) inbox.mark(inboxId, status);
}
