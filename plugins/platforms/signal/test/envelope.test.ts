// One SSE event's data as the gateway takes it (no network): DMs and groups, mentions by UUID or
// number, quotes of the bot, attachments; and what is skipped without a crash: malformed JSON,
// unknown envelopes, receipts, typing, the account's own sync messages, reactions.
import { describe, expect, it } from 'vitest';
import { type BotIdentity, readEnvelope } from '../envelope.js';
import { RpcError } from '../rpc.js';
import { dataUri } from '../send.js';
import { toSendFailure } from '../send-errors.js';

const BOT: BotIdentity = { account: '+15550009999', uuid: 'aaaaaaaa-0000-4000-8000-000000000001' };
const ALICE = { sourceNumber: '+15551230001', sourceUuid: 'BBBBBBBB-0000-4000-8000-000000000002', sourceName: 'Alice' };
const read = (envelope: unknown, allowlisted?: (uuid: string) => boolean) =>
  readEnvelope(JSON.stringify({ envelope, account: BOT.account }), BOT, 7, allowlisted);
const data = (dataMessage: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  ...ALICE,
  timestamp: 1700000000123,
  dataMessage: { timestamp: 1700000000123, ...dataMessage },
  ...extra,
});

describe('readEnvelope', () => {
  it('a DM: chat and user are the number, the id is timestamp:author', () => {
    const inbound = read(data({ message: 'hi' }));
    expect(inbound).toMatchObject({
      kind: 'message',
      event: {
        kind: 'text',
        text: 'hi',
        messageId: '1700000000123:+15551230001',
        receivedAt: 7,
        source: {
          platform: 'signal',
          chatId: '+15551230001',
          chatType: 'dm',
          userId: '+15551230001',
          userName: 'Alice',
        },
      },
    });
  });

  it('the user id is the UUID when an allowlist names it, or when Signal shares no number', () => {
    const listed = read(data({ message: 'hi' }), (uuid) => uuid === ALICE.sourceUuid.toLowerCase());
    expect(listed.kind === 'message' && listed.event.source.userId).toBe(ALICE.sourceUuid.toLowerCase());
    const numberless = read({ ...data({ message: 'hi' }), sourceNumber: null, source: ALICE.sourceUuid });
    expect(numberless.kind === 'message' && numberless.event.source).toMatchObject({
      chatId: ALICE.sourceUuid.toLowerCase(),
      userId: ALICE.sourceUuid.toLowerCase(),
    });
  });

  it('a group message mentioning the bot by UUID: mentioned, the placeholder dropped, others named', () => {
    const inbound = read(
      data({
        message: '\uFFFC ask \uFFFC please',
        groupInfo: { groupId: 'R3JvdXA=', type: 'DELIVER' },
        mentions: [
          { uuid: BOT.uuid, number: null, start: 0, length: 1 },
          { name: 'Bob', uuid: 'c', number: '+15551230002', start: 6, length: 1 },
        ],
      }),
    );
    expect(inbound).toMatchObject({
      kind: 'message',
      event: { text: 'ask @Bob please', source: { chatId: 'group:R3JvdXA=', chatType: 'group', mentioned: true } },
    });
  });

  it('a group message quoting the bot is a reply to it; one mentioning someone else is not a mention', () => {
    const quoted = read(
      data({ message: 'and?', groupInfo: { groupId: 'g' }, quote: { id: 1, authorNumber: BOT.account } }),
    );
    expect(quoted.kind === 'message' && quoted.event.source.repliedToBot).toBe(true);
    const other = read(
      data({
        message: '\uFFFC hi',
        groupInfo: { groupId: 'g' },
        mentions: [{ uuid: 'x', number: '+1555', start: 0, length: 1 }],
      }),
    );
    expect(other.kind === 'message' && other.event.source.mentioned).toBeUndefined();
  });

  it('attachments: listed with kind, safe name and the getAttachment params (sender or group)', () => {
    const inbound = read(
      data({
        message: '',
        groupInfo: { groupId: 'g' },
        attachments: [
          { id: 'abc.jpg', contentType: 'image/jpeg', filename: '../../x/photo one.jpg', size: 10 },
          { id: 'voice1', contentType: 'audio/aac', filename: null, size: 5 },
          { contentType: 'image/png' },
        ],
      }),
    );
    expect(inbound.kind).toBe('message');
    if (inbound.kind !== 'message') return;
    expect(inbound.event.kind).toBe('media');
    expect(inbound.files.map((f) => [f.id, f.fileName, f.attachment.kind, f.from])).toEqual([
      ['abc.jpg', 'photo_one.jpg', 'photo', { groupId: 'g' }],
      ['voice1', 'voice.aac', 'audio', { groupId: 'g' }],
    ]);
  });

  it('skips what is not a message, with a reason, never throwing', () => {
    const cases: [string, string, boolean][] = [
      ['{not json', 'not JSON', false],
      ['[1,2]', 'not a JSON object', false],
      [JSON.stringify({ account: BOT.account }), 'without an envelope', false],
      [
        JSON.stringify({ envelope: { ...ALICE, timestamp: 1, receiptMessage: { isDelivery: true } } }),
        'a receipt',
        true,
      ],
      [JSON.stringify({ envelope: { ...ALICE, timestamp: 1, typingMessage: { action: 'STARTED' } } }), 'typing', true],
      [JSON.stringify({ envelope: { ...ALICE, timestamp: 1, syncMessage: { sentMessage: {} } } }), 'sync', true],
      [JSON.stringify({ envelope: { ...ALICE, timestamp: 1, futureMessage: {} } }), 'does not know', false],
      [JSON.stringify({ envelope: data({ reaction: { emoji: '👍' } }) }), 'a reaction', true],
      [JSON.stringify({ envelope: data({ message: '   ' }) }), 'without text or files', true],
      [JSON.stringify({ envelope: { timestamp: 1, dataMessage: { message: 'x' } } }), 'without a sender', false],
      [JSON.stringify({ envelope: { ...data({ message: 'x' }), sourceNumber: BOT.account } }), 'own message', true],
    ];
    for (const [raw, reason, routine] of cases) {
      const inbound = readEnvelope(raw, BOT, 1);
      expect(inbound, raw).toMatchObject({ kind: 'skip', routine });
      expect(inbound.kind === 'skip' && inbound.reason, raw).toContain(reason);
    }
  });
});

describe('sending', () => {
  it("signal-cli's failures map to SendResults", () => {
    const limited = new RpcError('x', -5, 200, {
      response: { timestamp: 1, results: [{ type: 'RATE_LIMIT_FAILURE', retryAfterSeconds: 3 }] },
    });
    expect(toSendFailure(limited)).toMatchObject({ error: 'rate_limited', retryAfterMs: 3000 });
    const unregistered = new RpcError('x', -1, 200, { response: { results: [{ type: 'UNREGISTERED_FAILURE' }] } });
    expect(toSendFailure(unregistered)).toMatchObject({ error: 'not_found' });
    expect(toSendFailure(new RpcError('x', -4, 200))).toMatchObject({ error: 'forbidden' });
    expect(toSendFailure(new RpcError('x', -1, 200))).toMatchObject({ error: 'bad_format' });
    expect(toSendFailure(new RpcError('x', null, null))).toMatchObject({ error: 'transient' });
    expect(toSendFailure(new RpcError('x', null, 503))).toMatchObject({ error: 'transient', status: 503 });
  });

  it('a file travels as an RFC 2397 data URI with its name', () => {
    expect(dataUri('image/png', 'my chart;v2.png', Buffer.from('png'))).toBe(
      'data:image/png;filename=my_chart_v2.png;base64,cG5n',
    );
  });
});
