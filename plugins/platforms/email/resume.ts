/**
 * Where reading resumes, kept in platform state: the mailbox's UIDVALIDITY and the UID of the last
 * mail handled (taken or skipped). A mail is taken with its UID in the accept's transaction, so a
 * restart reads on after the last mail the gateway stored, and no mail is answered twice. The first
 * start begins at the mailbox's next UID (mail already there is left alone); a UIDVALIDITY that
 * changed (the server renumbered the mailbox) makes every UID stored meaningless, so the unread
 * (\Seen-less) mail is read once more instead: the mail the bot took is marked \Seen, and the
 * gateway's dedupe by Message-ID drops any it had taken already.
 */

export const UIDVALIDITY_KEY = 'uidvalidity';
export const LAST_UID_KEY = 'last_uid';

export type ResumeStart =
  /** the mailbox as last read: UIDs above `lastUid` are new */
  | { kind: 'continue'; lastUid: number }
  /** never read before: only what arrives from now on */
  | { kind: 'first'; lastUid: number }
  /** renumbered since: the unread mail below `lastUid` + 1 is read again, then on from there */
  | { kind: 'renumbered'; lastUid: number; was: string };

type State = { get(key: string): string | undefined; set(key: string, value: string): void };

/** Decides where to resume in a mailbox just opened, and records the UIDVALIDITY. */
export function resumeStart(state: State, uidValidity: string, uidNext: number): ResumeStart {
  const stored = state.get(UIDVALIDITY_KEY);
  const last = Number(state.get(LAST_UID_KEY));
  const before = Math.max(0, uidNext - 1);
  if (stored === uidValidity && Number.isSafeInteger(last) && last >= 0) return { kind: 'continue', lastUid: last };
  state.set(UIDVALIDITY_KEY, uidValidity);
  state.set(LAST_UID_KEY, String(before));
  return stored === undefined
    ? { kind: 'first', lastUid: before }
    : { kind: 'renumbered', lastUid: before, was: stored };
}

/** The state written with a mail's accept (or on its own for a mail skipped). */
export const resumeState = (uidValidity: string, uid: number): Record<string, string> => ({
  [UIDVALIDITY_KEY]: uidValidity,
  [LAST_UID_KEY]: String(uid),
});
