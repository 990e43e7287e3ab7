/**
 * `/link`: joins one person's identities on two platforms. `/link` in a direct chat answers a
 * one-time code (10 minutes); `/link CODE` in a direct chat elsewhere links that identity to the
 * owner of the one that asked for the code, so both share memory, sessions searched and files.
 * The code is a key to the asker's data: it is given and taken in direct chats only. `/unlink`
 * undoes it: a linked account is its own user again (starting empty: the data stays with the
 * owner), and an owner lets go of every account linked to it.
 */
import { randomInt } from 'node:crypto';
import { type AsyncStore, LINK_CODE_TTL_MS } from '@hermes/store';
import type { CommandContext } from '../commands/commands.js';
import { identityOfWho } from './identity.js';

/** No 0/O, 1/I/L: read aloud or typed from another screen. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;

export interface LinkPorts {
  links: Pick<AsyncStore['identityLinks'], 'putCode' | 'takeCode' | 'link' | 'ownerOf' | 'unlink'>;
  now(): number;
}

/** A fresh code: 8 characters of a 31-letter alphabet (about 2^39 codes). */
export function newLinkCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

const isDirect = (ctx: CommandContext) => ctx.sessionKey.endsWith(':dm');

/** Runs `/link` or `/link CODE` for the sender of `ctx`; answers the reply text. */
export async function linkCommand(ports: LinkPorts, ctx: CommandContext): Promise<string> {
  if (!isDirect(ctx)) return '/link works in a direct chat with me only (a code shown here would let others in).';
  const identity = identityOfWho(ctx.platform, ctx.userId);
  const code = ctx.args.trim().toUpperCase();
  if (code === '') {
    const fresh = newLinkCode();
    await ports.links.putCode(fresh, identity, ports.now() + LINK_CODE_TTL_MS);
    return (
      `Your link code: ${fresh}\nSend "/link ${fresh}" to me from your account on the other platform within ` +
      `${LINK_CODE_TTL_MS / 60_000} minutes; that account then shares this one's memory, sessions and files. ` +
      'Give this code to nobody else.'
    );
  }
  const issuer = await ports.links.takeCode(code);
  if (issuer === undefined) return 'That code is unknown or expired. Send /link in your other chat for a new one.';
  if (issuer === identity)
    return 'That code was made for this account: send it from your account on the other platform.';
  const owner = await ports.links.link(issuer, identity);
  return `Linked: this account (${identity}) is now one user with ${issuer === owner ? issuer : `${issuer} (${owner})`}.`;
}

/** Runs `/unlink` for the sender of `ctx`; answers the reply text. */
export async function unlinkCommand(ports: LinkPorts, ctx: CommandContext): Promise<string> {
  if (!isDirect(ctx)) return '/unlink works in a direct chat with me only.';
  const identity = identityOfWho(ctx.platform, ctx.userId);
  const owner = await ports.links.ownerOf(identity);
  const removed = await ports.links.unlink(identity);
  if (removed.length === 0) return 'This account is not linked to another one.';
  const config =
    ' A link written in config.yaml (gateway.identity_links) comes back at the next start: remove it there too.';
  if (owner !== identity) {
    return `Unlinked: this account (${identity}) is its own user again; what you kept as ${owner} stays there.${config}`;
  }
  return `Unlinked: ${removed.join(', ')} ${removed.length === 1 ? 'is' : 'are'} no longer this user; what they kept here stays with this account.${config}`;
}
