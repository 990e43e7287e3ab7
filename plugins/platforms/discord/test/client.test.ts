import type { MessageEvent, OutboundMessage, PlatformAdapter } from '@hermes/protocol';
import type { Client } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../client.js';
import { readDiscordSettings } from '../settings.js';
import { eventually, type Harness, startHarness, TOKEN } from './harness.js';

// every client the adapter builds, to look into its caches
const clients = vi.hoisted((): Client[] => []);
vi.mock('../client.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../client.js')>();
  return {
    ...original,
    createClient: (...args: Parameters<typeof original.createClient>) => {
      const client = original.createClient(...args);
      clients.push(client);
      return client;
    },
  };
});

const dm = {
  id: '1300000000000000001',
  channel_id: '1300000000000000002',
  channel_type: 1,
  type: 0,
  content: 'hello',
  author: { id: '1300000000000000003', username: 'ada', global_name: 'Ada', discriminator: '0', avatar: null },
  mentions: [],
  mention_roles: [],
  attachments: [],
  embeds: [],
  timestamp: '2026-11-29T20:00:00.000Z',
  edited_timestamp: null,
  tts: false,
  mention_everyone: false,
  pinned: false,
};

describe('the gateway client', () => {
  it("builds and keeps nothing for a DM's MESSAGE_CREATE (the adapter reads the raw dispatch)", () => {
    const client = createClient(readDiscordSettings({}, { DISCORD_BOT_TOKEN: TOKEN }));
    const actions = (client as unknown as { actions: { MessageCreate: { handle(data: unknown): object } } }).actions;
    expect(actions.MessageCreate.handle(dm)).toEqual({});
    expect(client.channels.cache.size).toBe(0);
    expect(client.users.cache.size).toBe(0);
    void client.destroy();
  });
});

describe("the gateway client's caches in a busy server channel", () => {
  const AUTHORS = 300;
  let h: Harness;
  let adapter: PlatformAdapter;
  const events: MessageEvent[] = [];

  beforeAll(async () => {
    h = await startHarness();
    adapter = h.adapter({ settings: { global_requests_per_second: 100_000 } });
    // answers every message, as the gateway would
    await adapter.start({
      async accept(event) {
        events.push(event);
        const answer: OutboundMessage = {
          chatId: event.source.chatId,
          text: `hi ${event.source.userName ?? ''}`,
          formatted: false,
          replyToMessageId: event.messageId,
        };
        void adapter.send(answer);
      },
    });
  });
  afterAll(() => h.close());

  it('keeps no user, member or message of the people who write, answers every one, leaves raw as sent', async () => {
    const channelId = h.fake.textChannelIds[0] ?? '';
    const sent = new Map<string, unknown>();
    for (let i = 0; i < AUTHORS; i++) {
      const user = { id: String(200_000_000_000_000_000n + BigInt(i)), name: `user${i}` };
      const payload = h.fake.guildMessage({ user, content: `hello ${i}`, channelId });
      sent.set(payload.id, payload);
    }
    await h.fake.until(() => h.fake.sent.length >= AUTHORS, 10_000, 'every message answered');
    await eventually(() => events.length >= AUTHORS);

    expect(new Set(events.map((e) => e.source.userId)).size).toBe(AUTHORS);
    const answered = h.fake.sent.map((m) => m.message_reference?.message_id);
    expect(new Set(answered)).toEqual(new Set(sent.keys()));
    // each event's raw is Discord's payload as sent: discord.js never got to write its User into member.user
    for (const event of events) expect(event.raw).toEqual(sent.get(event.messageId));

    // this file's other adapter has a client too (on its own fake): this one knows this fake's guild.
    // discord.js may still be handling the guild's dispatch on a busy machine (the adapter reads raw ones)
    const ours = () => clients.find((c) => c.guilds.cache.get(h.fake.guildId)?.roles.cache.has(h.fake.botRoleId));
    await eventually(() => ours() !== undefined, 5_000, 'a client with the guild and its roles');
    const client = ours();
    if (client === undefined) throw new Error('the adapter built no client');
    const guild = client.guilds.cache.get(h.fake.guildId);
    const channel = client.channels.cache.get(channelId);
    // discord.js still knows what the adapter reads: the guild and its roles, the channel, itself
    expect(guild?.roles.cache.has(h.fake.botRoleId)).toBe(true);
    expect(channel).toBeDefined();
    expect(client.users.cache.map((user) => user.id)).toEqual([h.fake.bot.id]);
    expect(guild?.members.cache.map((member) => member.id)).toEqual([h.fake.bot.id]);
    expect(guild?.members.me?.id).toBe(h.fake.bot.id);
    expect(channel !== undefined && 'messages' in channel ? channel.messages.cache.size : -1).toBe(0);
  });
});
