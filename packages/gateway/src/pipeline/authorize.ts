/**
 * Stage 3, authorize: the allowlists (`<PLATFORM>_ALLOWED_USERS`, `GATEWAY_ALLOWED_USERS`, ...) or
 * an approved pairing let a user in; a stranger's DM gets one pairing code an hour, anything else
 * from a stranger is silence.
 */
import type { MessageEvent } from '@hermes/protocol';
import type { AsyncStore } from '@hermes/store';
import { allowedByEnv, type Env } from './allowlist.js';

export interface AuthorizePorts {
  env: Env;
  pairing: Pick<AsyncStore['pairing'], 'request' | 'isApproved'>;
}

export type AuthorizeOutcome =
  | { kind: 'allowed' }
  /** a stranger in a group or thread: silence */
  | { kind: 'skipped'; reason: 'unauthorized' }
  /** a stranger already answered within the hour: silence, the row says `refused` */
  | { kind: 'refused' }
  /** a stranger's first DM this hour: this text (their pairing code) is the answer */
  | { kind: 'pairing_reply'; text: string };

/**
 * A web chat user signed in to the console: the `web` adapter gives the id `console:<actor>` only
 * to a request the gateway's console session vouched for (PlatformContext.webIdentity); a visitor's
 * id is its browser id, which never holds a colon.
 */
export const isConsoleOperator = (s: MessageEvent['source']): boolean =>
  s.platform === 'web' && s.userId.startsWith('console:');

const ALLOWED: AuthorizeOutcome = Object.freeze({ kind: 'allowed' });

/** A console operator or an allowlisted user: allowed with no store read and nothing awaited. */
export const allowedAtOnce = (ports: AuthorizePorts, s: MessageEvent['source']): boolean =>
  isConsoleOperator(s) || allowedByEnv(s.platform, s.userId, ports.env);

export async function authorize(ports: AuthorizePorts, event: MessageEvent): Promise<AuthorizeOutcome> {
  const s = event.source;
  if (allowedAtOnce(ports, s) || (await ports.pairing.isApproved(s.platform, s.userId))) return ALLOWED;
  if (s.chatType !== 'dm') return { kind: 'skipped', reason: 'unauthorized' };
  const pairing = await ports.pairing.request(s.platform, s.userId, s.userName);
  if ('refused' in pairing || !pairing.isNew) return { kind: 'refused' };
  return {
    kind: 'pairing_reply',
    text: `Hi! I don't know you yet. Your pairing code is ${pairing.code} (valid for 1 hour).\nAsk the owner to run: hermes pairing approve ${s.platform} ${pairing.code}`,
  };
}
