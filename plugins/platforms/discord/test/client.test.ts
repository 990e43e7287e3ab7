import type { MessageEvent, OutboundMessage, PlatformAdapter } from '@hermes/protocol';
import { Client } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../client.js';
import { readDiscordSettings } from '../settings.js';
import { eventually, type Harness, startHarness, TOKEN } from './harness.js';

// every client that logs in during a test, to look into its caches (recorded on discord.js's own
// Client.prototype.login: a vi.mock of the adapter's modules does not hold when another test file
// in the same worker imported them first)
const clients: Client[] = [];
const realLogin = Client.prototype.login;
function recordClients(): void {
  Client.prototype.login = function login(this: Client, token?: string) {
    clients.push(this);
    return realLogin.call(this, token);
  };
}
function stopRecording(): void {
  Client.prototype.login = realLogin;
}

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

  /** this describe's adapter's client: the one built after this index */
  let firstClient = 0;

  beforeAll(async () => {
    firstClient = clients.length;
    recordClients();
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
  afterAll(() => {
    stopRecording();
    return h.close();
  });

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

    const client = clients[firstClient];
    if (client === undefined) throw new Error('the adapter built no client');
    // discord.js caches no one who writes: its users are the bot alone, every guild's members the
    // bot's own member at most, and no channel keeps a message (what discord.js keeps of the guild
    // itself, its roles and channels, is not asserted here)
    expect(client.users.cache.map((user) => user.id)).toEqual([h.fake.bot.id]);
    for (const guild of client.guilds.cache.values()) {
      expect(guild.members.cache.map((member) => member.id).filter((id) => id !== h.fake.bot.id)).toEqual([]);
    }
    for (const channel of client.channels.cache.values()) {
      if ('messages' in channel) expect(channel.messages.cache.size).toBe(0);
    }
  });
});
