import { randomBytes } from 'node:crypto';

/** A fresh session id: `sess_` followed by 16 random hex characters. */
export function newSessionId(): string {
  return `sess_${randomBytes(8).toString('hex')}`;
}
