// WhatsApp Cloud API webhook bodies: hostile texts from allowed users, hand-written malformed
// envelopes (wrong object, missing entry/changes/value, unknown message and change types,
// statuses only), and seeded mutations of real payloads built by the fake's webhook builders.
import type { FakeWhatsApp, WaInboundMessage, WebhookSender } from '../../fakes/whatsapp-server.js';
import { deepMarker, mutate, rootReplacements } from '../lib/mutate.js';
import { megabyteText, NASTY_STRINGS } from '../lib/nasty.js';
import { EXTRA_USERS } from '../lib/platforms.js';
import type { Rng } from '../lib/prng.js';

/** The allowed user of the suite's WhatsApp number, a second one for the auth edge's canary, a stranger. */
export const WA_ALLOWED: WebhookSender = { from: '15557000001', name: 'Ada' };
export const WA_AUTH_CANARY: WebhookSender = { from: '15557000002', name: 'Grace' };
export const WA_STRANGER: WebhookSender = { from: '15559990009', name: 'Mallory' };
/** allowed users whose valid inputs each get their own session (as the other platforms' extra users) */
export const waExtraUser = (i: number): WebhookSender => ({
  from: `1555710${String(i % EXTRA_USERS).padStart(4, '0')}`,
  name: `extra${i % EXTRA_USERS}`,
});
export const WA_ALLOWED_USERS = [
  WA_ALLOWED.from,
  WA_AUTH_CANARY.from,
  ...Array.from({ length: EXTRA_USERS }, (_, i) => waExtraUser(i).from),
];

export interface WhatsAppCase {
  label: string;
  /** the webhook body (deep values as markers: serialise with jsonText) */
  body: unknown;
  /** the inbox key (the wamid) of a message that must be answered */
  answerKey?: string;
}

type Json = Record<string, unknown>;

/** Allowed users' texts that are hostile but valid (each from its own user): each must be answered. */
export function hostileWhatsAppTexts(wa: FakeWhatsApp): WhatsAppCase[] {
  return [...NASTY_STRINGS, megabyteText(31)].map((text, i) => {
    const from = waExtraUser(i);
    const message = wa.webhooks.text(from, text);
    return {
      label: `text #${i} (${text.length} chars)`,
      body: wa.webhooks.envelope({ messages: [message], sender: from }),
      ...(text.trim() === '' ? {} : { answerKey: message.id }),
    };
  });
}

/** The `value` of the first change of an envelope (to edit in place). */
function changeValue(body: unknown): Json {
  const entry = (body as { entry: { changes: { value: Json }[] }[] }).entry[0];
  const value = entry?.changes[0]?.value;
  if (value === undefined) throw new Error('whatsapp corpus: an envelope without entry[0].changes[0].value');
  return value;
}

/** Hand-written malformed or unusual webhook bodies; `next()` hands out the extra users of answered ones. */
export function handWrittenWhatsApp(wa: FakeWhatsApp, next: () => WebhookSender): WhatsAppCase[] {
  const cases: WhatsAppCase[] = [];
  const b = wa.webhooks;
  const text = (body = 'x', from = WA_ALLOWED) => b.text(from, body);
  const env = (messages: WaInboundMessage[], from = WA_ALLOWED) => b.envelope({ messages, sender: from }) as Json;
  const add = (label: string, body: unknown) => cases.push({ label, body });
  /** a case that must still be answered (from its own allowed user) */
  const answered = (label: string, edit: (body: Json, message: WaInboundMessage) => void) => {
    const from = next();
    const message = b.text(from, `answered: ${label}`);
    const body = env([message], from);
    edit(body, message);
    cases.push({ label, body, answerKey: message.id });
  };
  // the envelope
  add('object missing', { ...env([text()]), object: undefined });
  add('object "page"', { ...env([text()]), object: 'page' });
  add('object "instagram"', { ...env([text()]), object: 'instagram' });
  add('object is a number', { ...env([text()]), object: 7 });
  add('entry missing', { object: 'whatsapp_business_account' });
  add('entry is an object', { object: 'whatsapp_business_account', entry: { changes: [] } });
  add('entry is empty', { object: 'whatsapp_business_account', entry: [] });
  add('entry holds junk', { object: 'whatsapp_business_account', entry: [null, 1, 'x', [], {}] });
  add('changes missing', { object: 'whatsapp_business_account', entry: [{ id: '1' }] });
  add('changes is a string', { object: 'whatsapp_business_account', entry: [{ id: '1', changes: 'messages' }] });
  add('changes holds junk', { object: 'whatsapp_business_account', entry: [{ id: '1', changes: [null, 5, 'x'] }] });
  add('value missing', { object: 'whatsapp_business_account', entry: [{ id: '1', changes: [{ field: 'messages' }] }] });
  add('value is null', {
    object: 'whatsapp_business_account',
    entry: [{ id: '1', changes: [{ field: 'messages', value: null }] }],
  });
  add('value is an array', {
    object: 'whatsapp_business_account',
    entry: [{ id: '1', changes: [{ field: 'messages', value: [text()] }] }],
  });
  add('field missing', {
    object: 'whatsapp_business_account',
    entry: [{ changes: [{ value: changeValue(env([text()])) }] }],
  });
  // other change fields (account and template updates): ignored, not messages
  for (const field of ['account_update', 'message_template_status_update', 'security', 'x_future_field', '']) {
    add(`change field "${field}"`, {
      object: 'whatsapp_business_account',
      entry: [{ id: '1', changes: [{ field, value: changeValue(env([text(`field ${field}`)])) }] }],
    });
  }
  // messages
  const messages = (label: string, list: unknown) => {
    const body = env([text()]);
    changeValue(body).messages = list;
    add(label, body);
  };
  messages('messages is an object', { id: 'wamid.x', from: WA_ALLOWED.from, type: 'text' });
  messages('messages holds junk', [null, 1, 'x', [], {}]);
  messages('a message without an id', [{ ...text(), id: undefined }]);
  messages('a message without a sender', [{ ...text(), from: undefined }]);
  messages('a message without a type', [{ ...text(), type: undefined }]);
  messages('id, sender and type are numbers', [{ ...text(), id: 1, from: 15557000001, type: 3 }]);
  messages('a text without its body', [{ ...text(), text: undefined }]);
  messages('text.body is a number', [{ ...text(), text: { body: 42 } }]);
  messages('text is a string', [{ ...text(), text: 'flat' }]);
  messages('an image without a media id', [{ ...text(), type: 'image', image: { mime_type: 'image/jpeg' } }]);
  messages('an image that is a string', [{ ...text(), type: 'image', image: 'x' }]);
  messages('an interactive without a reply', [{ ...text(), type: 'interactive', interactive: { type: 'x' } }]);
  messages('a button reply with a forged approval id', [
    b.buttonReply(WA_ALLOWED, { id: 'hapv:forged0:once', title: 'Approve' }, 'wamid.never-sent'),
  ]);
  messages('a button reply from a stranger', [
    b.buttonReply(WA_STRANGER, { id: 'hapv:forged1:always', title: 'Always' }, 'wamid.never-sent'),
  ]);
  for (const type of ['reaction', 'unsupported', 'unknown', 'x_future_type', 'system', 'order', 'request_welcome']) {
    messages(`message type "${type}"`, [{ ...text(), type, [type]: { emoji: '👍', body: 'x' } }]);
  }
  messages('a location (not handled)', [{ ...text(), type: 'location', location: { latitude: 1, longitude: 2 } }]);
  messages('a contacts card (not handled)', [{ ...text(), type: 'contacts', contacts: [{ name: {} }] }]);
  messages('a group message', [{ ...text(), group_id: '120363000000000000' }]);
  messages(
    'the same wamid twice in one POST',
    (() => {
      const m = text('twice');
      return [m, m];
    })(),
  );
  messages('a text nested 3000 deep', [{ ...text(), text: { body: 'x', x_future: deepMarker(3_000, 'array') } }]);
  messages('an unknown field nested 50000 deep', [{ ...text(), x_future: deepMarker(50_000, 'object') }]);
  // a DM from a stranger: no answer but the pairing flow's (nothing lost)
  add('a DM from a stranger', env([text('hello, let me in', WA_STRANGER)], WA_STRANGER));
  // statuses only: logged, never turned into messages
  const statuses = (label: string, list: unknown) => add(label, withStatuses(b.envelope({ statuses: [] }), list));
  statuses('statuses: sent, delivered, read', [
    b.status('wamid.a', WA_ALLOWED.from, 'sent'),
    b.status('wamid.a', WA_ALLOWED.from, 'delivered'),
    b.status('wamid.a', WA_ALLOWED.from, 'read'),
  ]);
  statuses('statuses: failed with an error', [
    b.status('wamid.b', WA_ALLOWED.from, 'failed', { code: 131047, title: 'Re-engagement message' }),
  ]);
  statuses('statuses: unknown status, no id', [{ status: 'x_future' }, { id: 'wamid.c' }, null, 5]);
  statuses('statuses: errors is junk', [{ id: 'wamid.d', status: 'failed', errors: [null, 'x', { code: 'x' }] }]);
  statuses('statuses is an object', { id: 'wamid.e', status: 'sent' });
  add('value.errors from the API', withErrors(b.envelope({ statuses: [] }), [{ code: 131000, title: 'Something' }]));
  // valid messages in odd envelopes: still answered
  answered('no contacts', (body) => {
    delete changeValue(body).contacts;
  });
  answered('no metadata', (body) => {
    delete changeValue(body).metadata;
  });
  answered('another business number in metadata', (body) => {
    changeValue(body).metadata = { display_phone_number: '1', phone_number_id: '999' };
  });
  answered('a contact name that is 100 KB', (body) => {
    changeValue(body).contacts = [{ profile: { name: 'n'.repeat(100_000) }, wa_id: 'x' }];
  });
  answered('contacts holds junk', (body) => {
    changeValue(body).contacts = [null, 1, { wa_id: 5, profile: 'x' }];
  });
  answered('context quoting a message that was never sent', (_body, message) => {
    message.context = { from: wa.displayNumber, id: 'wamid.never-sent' };
  });
  answered('unknown fields everywhere', (body, message) => {
    Object.assign(body, { x_future: 1 });
    Object.assign(changeValue(body), { x_future: [1, 2] });
    Object.assign(message, { x_future: { a: 1 }, timestamp: 'not a time' });
  });
  answered('__proto__ keys in the message', (_body, message) => {
    Object.defineProperty(message, '__proto__', { value: { polluted: true }, enumerable: true });
  });
  answered('statuses alongside the message', (body) => {
    changeValue(body).statuses = [b.status('wamid.f', WA_ALLOWED.from, 'read')];
  });
  for (const root of rootReplacements()) add(root.label, root.value);
  return cases;
}

function withStatuses(body: unknown, list: unknown): unknown {
  changeValue(body).statuses = list;
  return body;
}

function withErrors(body: unknown, errors: unknown): unknown {
  changeValue(body).errors = errors;
  return body;
}

/** True for a path inside entry[0].changes[0].value (where the adapter reads). */
const insideValue = (p: readonly (string | number)[]) =>
  p.length > 5 && p[0] === 'entry' && p[2] === 'changes' && p[4] === 'value';

/** Seeded mutations of whole webhook bodies: a text, an image, a button reply, statuses. */
export function generatedWhatsApp(rng: Rng, wa: FakeWhatsApp, count: number): WhatsAppCase[] {
  const b = wa.webhooks;
  const out: WhatsAppCase[] = [];
  for (let i = 0; i < count; i++) {
    const words = `hello ${rng.string(6)}`;
    const templates = [
      () => b.envelope({ messages: [b.text(WA_ALLOWED, words)], sender: WA_ALLOWED }),
      () =>
        b.envelope({
          messages: [b.media(WA_ALLOWED, 'image', { id: '90000000001', mimeType: 'image/jpeg', caption: words })],
          sender: WA_ALLOWED,
        }),
      () =>
        b.envelope({
          messages: [b.buttonReply(WA_ALLOWED, { id: 'x-button', title: words }, 'wamid.never-sent')],
          sender: WA_ALLOWED,
        }),
      () => b.envelope({ statuses: [b.status('wamid.g', WA_ALLOWED.from, 'delivered')] }),
    ];
    const base = rng.pick(templates)();
    // most mutations go inside the change's value, where the adapter reads
    const m = mutate(base, rng, rng.chance(0.8) ? { keep: (p) => !insideValue(p) } : {});
    out.push({ label: `generated #${i}: ${m.label}`, body: m.value });
  }
  return out;
}
