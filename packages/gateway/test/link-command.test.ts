// `/link` on its own: a code in a direct chat only (never in a group, where others would read it),
// the code taken once, linking the redeeming identity to the code's owner; and the job identities.
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../src/commands/commands.js';
import { identityOfWho } from '../src/users/identity.js';
import { type LinkPorts, linkCommand, unlinkCommand } from '../src/users/link-command.js';

function fakeLinks() {
  const codes = new Map<string, string>();
  const owners = new Map<string, string>();
  const links: LinkPorts['links'] = {
    putCode: async (code, identity) => void codes.set(code, identity),
    takeCode: async (code) => {
      const identity = codes.get(code);
      codes.delete(code);
      return identity;
    },
    ownerOf: async (identity) => owners.get(identity) ?? identity,
    link: async (to, joining) => {
      const owner = owners.get(to) ?? to;
      owners.set(joining, owner);
      return owner;
    },
    unlink: async (identity) => {
      const removed = [...owners].filter(([id, owner]) => id === identity || owner === identity).map(([id]) => id);
      for (const id of removed) owners.delete(id);
      return removed.sort();
    },
  };
  return { links, owners, now: () => 0 };
}

const ctx = (platform: string, userId: string, sessionKey: string, args = ''): CommandContext => ({
  platform,
  chatId: userId,
  userId,
  sessionKey,
  args,
});

describe('/link', () => {
  it('gives a code in a DM; the code joins another platform identity to its owner, once', async () => {
    const ports = fakeLinks();
    const answer = await linkCommand(ports, ctx('telegram', '111', 'telegram:111:dm'));
    const code = /link code: ([A-Z2-9]{8})/.exec(answer)?.[1] ?? '';
    expect(code).toHaveLength(8);
    expect(await linkCommand(ports, ctx('slack', 'U1', 'slack:D1:dm', code.toLowerCase()))).toContain('Linked');
    expect(ports.owners.get('slack:U1')).toBe('telegram:111');
    expect(await linkCommand(ports, ctx('discord', '9', 'discord:9:dm', code))).toContain('unknown or expired');
  });

  it('refuses a group chat, and a code redeemed by the identity that asked for it', async () => {
    const ports = fakeLinks();
    expect(await linkCommand(ports, ctx('telegram', '111', 'telegram:-5:group:111'))).toContain('direct chat');
    const code = /link code: (\w+)/.exec(await linkCommand(ports, ctx('telegram', '111', 'telegram:111:dm')))?.[1];
    expect(await linkCommand(ports, ctx('telegram', '111', 'telegram:111:dm', code))).toContain(
      'made for this account',
    );
    expect(ports.owners.size).toBe(0);
  });

  it("a job's identity: a chat's sender, api:default, hook:<name>, cron", () => {
    expect(identityOfWho('telegram', '111')).toBe('telegram:111');
    expect(identityOfWho('web', 'b-123')).toBe('web:b-123');
    expect(identityOfWho('api', 'my-session')).toBe('api:default');
    expect(identityOfWho('gateway', 'hook:boot-md')).toBe('hook:boot-md');
    expect(identityOfWho('cron', 'telegram:42')).toBe('cron');
  });

  it('/unlink: refused in a group; a linked account is its own user again; not linked: said so', async () => {
    const ports = fakeLinks();
    ports.owners.set('slack:U1', 'telegram:111');
    expect(await unlinkCommand(ports, ctx('slack', 'U1', 'slack:C1:group'))).toBe(
      '/unlink works in a direct chat with me only.',
    );
    expect(ports.owners.get('slack:U1')).toBe('telegram:111');
    expect(await unlinkCommand(ports, ctx('slack', 'U1', 'slack:U1:dm'))).toMatch(
      /^Unlinked: this account \(slack:U1\) is its own user again; what you kept as telegram:111 stays there\./,
    );
    expect(ports.owners.has('slack:U1')).toBe(false);
    expect(await unlinkCommand(ports, ctx('slack', 'U1', 'slack:U1:dm'))).toBe(
      'This account is not linked to another one.',
    );
  });
});
