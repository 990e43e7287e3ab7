import { describe, expect, it } from 'vitest';
import { createClient } from '../client.js';
import { readDiscordSettings } from '../settings.js';
import { TOKEN } from './harness.js';

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
