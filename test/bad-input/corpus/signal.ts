// signal-cli daemon events (the SSE stream's `receive` events, `{ envelope, account }` as data):
// hostile texts from allowed users, hand-written malformed data and envelopes (receipts, typing,
// sync, calls, edits, stories, unknown kinds), raw SSE lines, and seeded mutations of real
// envelopes shaped as the fake daemon sends them.
import { randomUUID } from 'node:crypto';
import type { SignalPerson } from '../../fakes/signal-server.js';
import { deepMarker, jsonText, mutate, rootReplacements } from '../lib/mutate.js';
import { megabyteText, NASTY_STRINGS } from '../lib/nasty.js';
import { EXTRA_USERS } from '../lib/platforms.js';
import type { Rng } from '../lib/prng.js';

const person = (number: string, name: string): SignalPerson => ({ number, uuid: randomUUID(), name });
export const SIG_ALLOWED = person('+15557200001', 'Ada');
export const SIG_STRANGER = person('+15559990019', 'Mallory');
export const sigExtraUser = (() => {
  const people = Array.from({ length: EXTRA_USERS }, (_, i) =>
    person(`+1555730${String(i).padStart(4, '0')}`, `extra${i}`),
  );
  return (i: number): SignalPerson => people[i % EXTRA_USERS] as SignalPerson;
})();
export const SIG_ALLOWED_USERS = [
  SIG_ALLOWED.number,
  ...Array.from({ length: EXTRA_USERS }, (_, i) => sigExtraUser(i).number),
];

/** One input on the event stream. */
export type SignalInput =
  /** an event's data (a JSON value, serialised with jsonText; a string is the data line as-is) under `event` */
  | { kind: 'event'; data: unknown; event?: string }
  /** SSE lines written before a harmless event's data (a comment, a bogus field, a retry) */
  | { kind: 'lines'; lines: string };

export interface SignalCase {
  label: string;
  input: SignalInput;
  /** the inbox key (`timestamp:number`) of a message that must be answered */
  answerKey?: string;
}

// in the past (mid-2025) and far from the fake's own clock (1.7e12, +1 per message): keys never meet
let clock = 1_750_000_000_000;

/** A `receive` event's data for a text from `from` (as the fake daemon builds it) and its inbox key. */
export function signalText(
  from: SignalPerson,
  text: string,
  account: string,
  extra: Record<string, unknown> = {},
): { data: Record<string, unknown>; key: string } {
  clock += 1;
  const envelope = {
    source: from.number,
    sourceNumber: from.number,
    sourceUuid: from.uuid,
    sourceName: from.name,
    sourceDevice: 1,
    timestamp: clock,
    serverReceivedTimestamp: clock + 5,
    serverDeliveredTimestamp: clock + 6,
    dataMessage: { timestamp: clock, message: text, expiresInSeconds: 0, viewOnce: false, ...extra },
  };
  return { data: { envelope, account }, key: `${clock}:${from.number}` };
}

/** Allowed users' texts that are hostile but valid (each from its own user): each must be answered. */
export function hostileSignalTexts(account: string): SignalCase[] {
  return [...NASTY_STRINGS, megabyteText(41)].map((text, i) => {
    const { data, key } = signalText(sigExtraUser(i), text, account);
    return {
      label: `text #${i} (${text.length} chars)`,
      input: { kind: 'event', data },
      ...(text.trim() === '' ? {} : { answerKey: key }),
    };
  });
}

type Json = Record<string, unknown>;

/** Hand-written malformed data, envelopes of other kinds and raw SSE lines. */
export function handWrittenSignal(account: string, accountUuid: string): SignalCase[] {
  const cases: SignalCase[] = [];
  const event = (label: string, data: unknown, name?: string) =>
    cases.push({ label, input: { kind: 'event', data, ...(name === undefined ? {} : { event: name }) } });
  const envelopeWith = (edit: (envelope: Json) => void) => {
    const { data } = signalText(SIG_ALLOWED, 'x', account);
    edit(data.envelope as Json);
    return data;
  };
  const withoutData = (other: Json) =>
    envelopeWith((e) => {
      delete e.dataMessage;
      Object.assign(e, other);
    });
  // the data line itself
  event('data not JSON', 'this is not json');
  event('data empty', '');
  event('data truncated JSON', '{"envelope":{"source":"+1555');
  event('data JSON null', 'null');
  event('data a JSON array', '[]');
  event('data a JSON string', '"receive"');
  event('data a JSON object split over data lines', '{"envelope":\n{"source":\n"+15550000000"}}');
  event('data with a lone surrogate escape', '{"envelope":"\\ud800"}');
  event('data 1 MB, not JSON', megabyteText(42));
  event('an exception only (signal-cli error)', { exception: { message: 'x', type: 'UntrustedIdentityException' } });
  event('envelope missing', { account });
  event('envelope null', { envelope: null, account });
  event('envelope a string', { envelope: 'x', account });
  // other event names: not a receive
  event('event name unknown', signalText(SIG_ALLOWED, 'unknown event', account).data, 'x_future');
  event('event name empty', signalText(SIG_ALLOWED, 'empty event', account).data, '');
  // envelopes that are not a message
  event('a receipt', withoutData({ receiptMessage: { when: 1, isDelivery: true, timestamps: [1] } }));
  event('a typing indicator', withoutData({ typingMessage: { action: 'STARTED', timestamp: 1 } }));
  event('a sync message', withoutData({ syncMessage: { sentMessage: { message: 'from my phone' } } }));
  event('a call', withoutData({ callMessage: { offerMessage: { id: 1 } } }));
  event('an edit', withoutData({ editMessage: { targetSentTimestamp: 1, dataMessage: { message: 'edited' } } }));
  event('a story', withoutData({ storyMessage: { allowsReplies: true } }));
  event('an unknown envelope kind', withoutData({ x_futureMessage: { a: 1 } }));
  event('receipt, typing and sync as strings', withoutData({ receiptMessage: 'x', typingMessage: 1, syncMessage: [] }));
  // message envelopes with odd parts
  const message = (label: string, edit: (envelope: Json, data: Json) => void) =>
    event(
      label,
      envelopeWith((e) => edit(e, e.dataMessage as Json)),
    );
  message('no sender at all', (e) => {
    delete e.source;
    delete e.sourceNumber;
    delete e.sourceUuid;
  });
  message('sender is a number', (e) => {
    e.source = 15557200001;
    e.sourceNumber = 15557200001;
    e.sourceUuid = 5;
  });
  message('from the bot account itself', (e) => {
    e.source = account;
    e.sourceNumber = account;
    e.sourceUuid = accountUuid;
  });
  message('a reaction', (_e, d) => {
    d.reaction = { emoji: '👍', targetAuthor: account, targetSentTimestamp: 1, isRemove: false };
  });
  message('a remote delete', (_e, d) => {
    d.remoteDelete = { timestamp: 1 };
  });
  message('a sticker without text', (_e, d) => {
    d.message = null;
    d.sticker = { packId: 'x', stickerId: 1 };
  });
  message('no timestamp anywhere', (e, d) => {
    delete e.timestamp;
    delete d.timestamp;
  });
  message('timestamp a string', (e, d) => {
    e.timestamp = 'yesterday';
    d.timestamp = 'yesterday';
  });
  message('timestamp unsafe', (e) => {
    e.timestamp = 2 ** 60;
  });
  message('message is a number', (_e, d) => {
    d.message = 42;
  });
  message('attachments with junk entries', (_e, d) => {
    d.attachments = [null, 1, 'x', {}, { id: 5 }, { id: '../../etc/passwd', contentType: 5, size: -1 }];
  });
  message('attachments is an object', (_e, d) => {
    d.attachments = { id: 'x' };
  });
  message('groupInfo is junk', (_e, d) => {
    d.groupInfo = { groupId: 5, type: 'x' };
  });
  message('mentions with junk', (_e, d) => {
    d.mentions = [null, { start: -1, length: 1e9, uuid: 5 }, 'x'];
  });
  message('quote is junk', (_e, d) => {
    d.quote = { id: 'x', author: null, text: 5 };
  });
  message('an unknown field nested 50000 deep', (_e, d) => {
    d.x_future = deepMarker(50_000, 'object');
  });
  event('a DM from a stranger', signalText(SIG_STRANGER, 'hello, let me in', account).data);
  // as text: a string value would otherwise be sent as the raw data line
  for (const root of rootReplacements()) event(`data ${root.label}`, jsonText(root.value));
  // raw SSE lines before a harmless event (eventsource-parser reads or skips each)
  const lines = (label: string, text: string) =>
    cases.push({ label: `sse: ${label}`, input: { kind: 'lines', lines: text } });
  lines('a comment line', ': keep-alive');
  lines('a line without a colon', 'bogus line without a colon');
  lines('a field named data without a colon', 'data');
  lines('an unknown field', 'x-future: 1');
  lines('retry not a number', 'retry: soon');
  lines('retry negative', 'retry: -5');
  lines('an id with a NUL', 'id: a\u0000b');
  lines('a 1 MB comment', `: ${megabyteText(43).replace(/\n/g, ' ')}`);
  lines('CR line endings', ': cr\r: cr again\r');
  lines('a BOM and controls', '\ufeff: bom\u0001\u0002');
  return cases;
}

/** Seeded mutations of whole event data: a DM, a group message mentioning the bot, an attachment. */
export function generatedSignal(rng: Rng, account: string, accountUuid: string, count: number): SignalCase[] {
  const out: SignalCase[] = [];
  for (let i = 0; i < count; i++) {
    const words = `hello ${rng.string(6)}`;
    const templates = [
      () => signalText(SIG_ALLOWED, words, account).data,
      () =>
        signalText(SIG_ALLOWED, `\uFFFC ${words}`, account, {
          mentions: [{ name: account, number: null, uuid: accountUuid, start: 0, length: 1 }],
          groupInfo: { groupId: 'QmFkSW5wdXRHcm91cA==', groupName: 'Team', revision: 3, type: 'DELIVER' },
        }).data,
      () =>
        signalText(SIG_ALLOWED, words, account, {
          attachments: [{ contentType: 'image/jpeg', filename: 'a.jpg', id: 'not-stored.jpg', size: 5 }],
        }).data,
    ];
    const base = rng.pick(templates)();
    // most mutations go inside the envelope, where the adapter reads
    const m = mutate(base, rng, rng.chance(0.8) ? { keep: (p) => p[0] !== 'envelope' } : {});
    out.push({ label: `generated #${i}: ${m.label}`, input: { kind: 'event', data: m.value } });
  }
  return out;
}
