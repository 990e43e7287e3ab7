/**
 * Who a turn is for (`ToolContext.user`, `TurnRequest.user`): the owner of the job's identity
 * (identity links resolved, so linked accounts share memory, sessions searched and files) and
 * its tier (`user` unless the gateway's tier rule says `admin`).
 */
import type { TurnUser } from '@hermes/protocol';
import { identityOfWho } from './identity.js';

export interface TurnUserPorts {
  /** the store's identity links */
  ownerOf(identity: string): Promise<string>;
  /** the tier of an identity (access tiers); absent: every gateway user is `user` */
  tierOf?(identity: string, owner: string): 'admin' | 'user';
}

/** The user of a job whose `who` is `platform` / `userId`. */
export async function turnUser(ports: TurnUserPorts, platform: string, userId: string): Promise<TurnUser> {
  const identity = identityOfWho(platform, userId);
  const owner = await ports.ownerOf(identity);
  return { key: owner, tier: ports.tierOf?.(identity, owner) ?? 'user' };
}
