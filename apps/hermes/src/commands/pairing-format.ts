/** Text output of `hermes pairing`: the listing and the one-line refusals. */
import type { ApprovedUser, PairingApproveResult, PendingPairing } from '@hermes/store';

const MINUTE_MS = 60_000;

/** Whole minutes until `at`, at least 1 (a code that expires in 20 s still shows "1 min"). */
const minutesUntil = (at: number, nowMs: number): number => Math.max(1, Math.ceil((at - nowMs) / MINUTE_MS));

const who = (userId: string, userName: string | null): string =>
  userName === null ? userId : `${userName} (${userId})`;

/** The human listing of pending requests and approved users, as printed by `hermes pairing list`. */
export function renderPairingList(pending: PendingPairing[], approved: ApprovedUser[], nowMs: number): string {
  const lines: string[] = [];
  if (pending.length === 0) lines.push('No pending pairing requests.');
  else {
    lines.push('Pending pairing requests (approve with: hermes pairing approve PLATFORM CODE):');
    for (const p of pending) {
      lines.push(
        `  ${p.platform}  ${p.code}  ${who(p.userId, p.userName)}  expires in ${minutesUntil(p.expiresAt, nowMs)} min`,
      );
    }
  }
  if (approved.length === 0) lines.push('No approved users.');
  else {
    lines.push('Approved users (revoke with: hermes pairing revoke PLATFORM USER_ID):');
    for (const a of approved) {
      lines.push(`  ${a.platform}  ${who(a.userId, a.userName)}  approved ${new Date(a.approvedAt).toISOString()}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The one-line reason an approve was refused. */
export function pairingRefusal(
  result: Exclude<PairingApproveResult, { ok: true }>,
  platform: string,
  code: string,
  nowMs: number,
): string {
  switch (result.reason) {
    case 'unknown':
      return `no pending pairing code ${code.trim()} on ${platform} (see: hermes pairing list)`;
    case 'expired':
      return `pairing code ${code.trim()} on ${platform} has expired; the user gets a new one by messaging the bot again`;
    case 'rate_limited':
      return `too many wrong pairing codes on ${platform}; try again in ${minutesUntil(result.retryAt, nowMs)} min`;
  }
}
