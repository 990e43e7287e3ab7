// Native slash commands through real discord.js: registration on ready, the off switch, and interaction round trips.
import type { MessageEvent, PlatformAdapter } from '@hermes/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REGISTERED_STATE_KEY } from '../slash-commands.js';
import { ADA, eventually, type Harness, memoryState, nextEvent, recordingSink, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const running: PlatformAdapter[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((adapter) => adapter.stop()));
  h.fake.reset();
  h.lines.length = 0;
});

async function started(options: Parameters<Harness['adapter']>[0] = {}) {
  const adapter = h.adapter(options);
  running.push(adapter);
  const recorder = recordingSink();
  await adapter.start(recorder.sink);
  return { adapter, recorder };
}

const puts = () => h.fake.calls.filter((call) => call.route === 'bulkOverwriteCommands');

describe('discord slash command registration', () => {
  it('registers the gateway commands once ready, and not again while the list is unchanged', async () => {
    const state = memoryState();
    await started({ settings: { slash_commands: true }, state });
    await eventually(() => state.values.has(REGISTERED_STATE_KEY));
    expect(puts()[0]?.path).toBe(`/applications/${h.fake.applicationId}/commands`);
    expect(h.fake.commands()?.map((command) => [command.name, command.description, command.options])).toEqual([
      ['help', 'list the commands', undefined],
      ['new', 'start a fresh session', undefined],
      [
        'queue',
        'answer TEXT after the running turn',
        [{ type: 3, name: 'text', description: 'TEXT', required: false }],
      ],
    ]);
    expect(state.values.get(REGISTERED_STATE_KEY)).toMatch(/^[0-9a-f]{64}$/);
    await Promise.all(running.splice(0).map((adapter) => adapter.stop()));
    const { adapter } = await started({ settings: { slash_commands: true }, state });
    await eventually(() => h.lines.some((line) => /discord: connected/.test(line.msg ?? '')));
    await adapter.stop();
    expect(puts()).toHaveLength(1);
  });

  it('registers nothing when slash_commands is false', async () => {
    const { adapter } = await started({ settings: { slash_commands: false } });
    await eventually(() => h.lines.some((line) => /discord: connected/.test(line.msg ?? '')));
    await adapter.stop(); // waits for a registration under way
    expect(puts()).toEqual([]);
  });

  it('logs a failed registration and stays connected', async () => {
    h.fake.failNext('bulkOverwriteCommands', { status: 500 });
    const state = memoryState();
    const { adapter } = await started({ settings: { slash_commands: true }, state });
    await eventually(() => h.lines.some((line) => /registration failed/.test(line.msg ?? '')));
    expect(adapter.status().state).toBe('connected');
    expect(state.values.has(REGISTERED_STATE_KEY)).toBe(false);
  });
});

describe('discord interactions', () => {
  const acks = () => h.fake.calls.filter((call) => call.route === 'interactionCallback');

  async function commandEvent(recorder: { events: MessageEvent[] }): Promise<MessageEvent> {
    return nextEvent(recorder.events);
  }

  it('acknowledges at once, hands `/name args` on, and answers by editing the original then following up', async () => {
    const { adapter, recorder } = await started();
    const interaction = h.fake.interaction({ name: 'queue', options: { text: 'look this up' }, user: ADA });
    const event = await commandEvent(recorder);
    expect(event).toMatchObject({
      messageId: interaction.id,
      text: '/queue look this up',
      source: { chatId: h.fake.textChannelIds[0], chatType: 'group', userId: ADA.id, mentioned: true },
    });
    await eventually(() => h.fake.interactions()[0]?.responseType === 5);
    expect(acks()[0]?.body).toEqual({ type: 5 });
    // the gateway names the interaction on the first chunk only
    const first = await adapter.send({
      chatId: event.source.chatId,
      text: 'part one',
      formatted: true,
      replyToMessageId: interaction.id,
    });
    const second = await adapter.send({ chatId: event.source.chatId, text: 'part two', formatted: true });
    expect(h.fake.sent.map((message) => [message.via, message.content])).toEqual([
      ['interaction_original', 'part one'],
      ['interaction_followup', 'part two'],
    ]);
    expect(first).toEqual({ ok: true, messageIds: [h.fake.interactions()[0]?.originalId] });
    expect(second).toEqual({ ok: true, messageIds: [h.fake.interactions()[0]?.followupIds[0]] });
    // an answer to a plain message in the same channel is a channel message again
    const plain = h.fake.guildMessage({ user: ADA, content: 'hi', mention: true });
    await nextEvent(recorder.events);
    await adapter.send({ chatId: event.source.chatId, text: 'hello', formatted: true, replyToMessageId: plain.id });
    await adapter.send({ chatId: event.source.chatId, text: 'more', formatted: true });
    expect(h.fake.sent.slice(2).map((message) => message.via)).toEqual(['channel', 'channel']);
  });

  it('answers a DM command (the gateway names no message in DMs) through the original response', async () => {
    const { adapter, recorder } = await started();
    const interaction = h.fake.interaction({ name: 'help', where: 'dm', user: ADA });
    const event = await commandEvent(recorder);
    expect(event.source).toMatchObject({ chatType: 'dm', chatId: h.fake.dmChannelId(ADA), userId: ADA.id });
    expect(event.text).toBe('/help');
    await adapter.send({ chatId: event.source.chatId, text: 'Commands: ...', formatted: true });
    expect(h.fake.sent.map((message) => [message.via, message.interactionId])).toEqual([
      ['interaction_original', interaction.id],
    ]);
  });

  it('gives a thread command the thread as chat', async () => {
    const { recorder } = await started();
    h.fake.interaction({ name: 'new', where: 'thread' });
    const event = await commandEvent(recorder);
    expect(event.source).toMatchObject({ chatType: 'thread', chatId: h.fake.threadId, threadId: h.fake.threadId });
  });

  it('falls back to a channel message when the interaction token no longer works', async () => {
    const { adapter, recorder } = await started();
    const interaction = h.fake.interaction({ name: 'help', user: ADA });
    const event = await commandEvent(recorder);
    await eventually(() => h.fake.interactions()[0]?.responseType === 5);
    h.fake.failNext('editOriginal', { status: 404, code: 10015, message: 'Unknown Webhook' });
    const result = await adapter.send({
      chatId: event.source.chatId,
      text: 'answer',
      formatted: true,
      replyToMessageId: interaction.id,
    });
    expect(result.ok).toBe(true);
    expect(h.fake.sent.map((message) => [message.via, message.channel_id, message.message_reference])).toEqual([
      ['channel', event.source.chatId, undefined],
    ]);
  });

  it('maps a too long interaction answer to too_long', async () => {
    const { adapter, recorder } = await started();
    const interaction = h.fake.interaction({ name: 'help', user: ADA });
    const event = await commandEvent(recorder);
    const result = await adapter.send({
      chatId: event.source.chatId,
      text: 'y'.repeat(2001),
      formatted: true,
      replyToMessageId: interaction.id,
    });
    expect(result).toMatchObject({ ok: false, error: 'too_long' });
  });

  it('does not acknowledge a replayed interaction twice, and the event keeps its id for dedupe', async () => {
    const { adapter, recorder } = await started();
    const interaction = h.fake.interaction({ name: 'help', user: ADA });
    const event = await commandEvent(recorder);
    h.fake.dispatch('INTERACTION_CREATE', interaction.payload);
    const again = await commandEvent(recorder);
    expect(again.messageId).toBe(event.messageId);
    await adapter.stop(); // waits for the acknowledgements under way
    expect(acks()).toHaveLength(1);
  });

  it('ignores component interactions and logs malformed ones', async () => {
    const { recorder } = await started();
    h.fake.dispatch('INTERACTION_CREATE', { id: '1300000000000000020', type: 3, data: { custom_id: 'x' } });
    h.fake.dispatch('INTERACTION_CREATE', { id: '1300000000000000021', type: 2, data: { name: 'help' } });
    h.fake.interaction({ name: 'new', user: ADA });
    expect((await commandEvent(recorder)).text).toBe('/new');
    const malformed = h.lines.filter((line) => /malformed INTERACTION_CREATE/.test(line.msg ?? ''));
    expect(malformed.map((line) => line.obj)).toEqual([
      { problem: 'token is missing', interactionId: '1300000000000000021' },
    ]);
  });
});
