// Bad input at the WhatsApp webhook (POST /whatsapp/webhook, X-Hub-Signature-256): malformed and
// unusual signed payloads, raw bodies, and authentication (forged, missing and misplaced signatures,
// replayed deliveries). One real daemon in-process against the fake Graph API; after every batch it
// must be idle with nothing lost and still answer a valid message.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { type FakeWhatsApp, signWebhook, startFakeWhatsApp, type WebhookSender } from '../fakes/whatsapp-server.js';
import {
  generatedWhatsApp,
  handWrittenWhatsApp,
  hostileWhatsAppTexts,
  WA_ALLOWED,
  WA_ALLOWED_USERS,
  WA_AUTH_CANARY,
  type WhatsAppCase,
  waExtraUser,
} from './corpus/whatsapp.js';
import { type Case, runBatches } from './lib/batch.js';
import { type Daemon, startDaemon } from './lib/daemon.js';
import { jsonText } from './lib/mutate.js';
import { echoModel, lastUserText, post } from './lib/platforms.js';
import { Rng, runSeed } from './lib/prng.js';
import { type Edge, Tally } from './lib/tally.js';
import { until } from './lib/wait.js';

const WA_PATH = '/whatsapp/webhook';
const APP_SECRET = 'bad-input-whatsapp-app-secret-6b2f0d';
const VERIFY_TOKEN = 'bad-input-whatsapp-verify-token';

const tally = new Tally();
const seed = runSeed();
const rng = new Rng(seed);
let model: FakeOpenAI;
let wa: FakeWhatsApp;
let daemon: Daemon;
let url: string;

beforeAll(async () => {
  model = await startFakeOpenAI();
  echoModel(model);
  wa = await startFakeWhatsApp({ appSecret: APP_SECRET });
  daemon = await startDaemon({
    env: {
      WHATSAPP_ACCESS_TOKEN: wa.token,
      WHATSAPP_PHONE_NUMBER_ID: wa.phoneNumberId,
      WHATSAPP_APP_SECRET: APP_SECRET,
      WHATSAPP_VERIFY_TOKEN: VERIFY_TOKEN,
      WHATSAPP_API_URL: wa.apiUrl,
      WHATSAPP_ALLOWED_USERS: WA_ALLOWED_USERS.join(','),
    },
    modelUrl: model.url,
    // no read marks: every answered input would add a Graph call that proves nothing here
    config: { gateway: { platforms: { whatsapp: { typing_indicator: false } } } },
  });
  url = `${daemon.url}${WA_PATH}`;
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await wa?.close();
  await model?.close();
  tally.report('platform-whatsapp');
}, 30_000);

/** A verify() for inputs that must be answered: their inbox row done, every reply chunk sent. */
function answered(key: string | undefined): (() => string | null) | undefined {
  if (key === undefined) return undefined;
  return () => {
    const row = daemon.message('whatsapp', key);
    if (row === undefined) return `never accepted (no inbox row ${key})`;
    if (row.status !== 'done') return `inbox row ${row.status}, expected done`;
    if (row.outbox.length === 0 || row.outbox.some((s) => s !== 'sent')) return `replies ${row.outbox.join(',')}`;
    return null;
  };
}

/** Processed or ignored (200), refused as malformed (400), too large (413), wrong type (415). */
const CLEAR_ANSWERS = new Set([200, 400, 413, 415]);
const REFUSED = new Set([401]);

function statusCheck(status: number, error: string | undefined, allowed = CLEAR_ANSWERS): string | null {
  if (status === 0) return `no answer: ${error ?? 'unknown'}`;
  return allowed.has(status) ? null : `answered HTTP ${status}`;
}

function expectAllPassed(edge: Edge): void {
  const { tried, passed } = tally.count(edge);
  expect(tried).toBeGreaterThan(0);
  expect(tally.failuresOf(edge), `seed ${seed}`).toEqual([]);
  expect(passed).toBe(tried);
}

const signed = (raw: string | Uint8Array, secret = APP_SECRET): Record<string, string> => ({
  'content-type': 'application/json',
  'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`,
});

/** A valid text from `from`, signed and posted; waits for the echo of `tag`. */
function canary(from: WebhookSender) {
  return async (tag: string): Promise<void> => {
    const body = JSON.stringify(
      wa.webhooks.envelope({ messages: [wa.webhooks.text(from, `canary ${tag}`)], sender: from }),
    );
    const res = await post(url, body, signed(body));
    if (res.status !== 200) throw new Error(`the whatsapp canary ${tag} was answered ${res.status}`);
    await until(`the whatsapp canary ${tag}`, () => wa.sent.some((m) => m.text.includes(tag)), 20_000);
  };
}

describe('bad input at the WhatsApp webhook (one daemon)', () => {
  it('signed malformed payloads get a clear answer (200 or 400), valid ones are answered once', async () => {
    let extra = 0;
    const nextUser = () => waExtraUser(40 + (extra++ % 40));
    const inputs: WhatsAppCase[] = [
      ...hostileWhatsAppTexts(wa),
      ...handWrittenWhatsApp(wa, nextUser),
      ...generatedWhatsApp(rng.fork('whatsapp-webhook'), wa, 90),
    ];
    const cases: Case[] = inputs.map((c) => ({
      label: c.label,
      send: async () => {
        const raw = jsonText(c.body);
        const res = await post(url, raw, signed(raw));
        return statusCheck(res.status, res.error);
      },
      ...(c.answerKey === undefined ? {} : { verify: answered(c.answerKey) }),
    }));
    const valid = (text: string) =>
      JSON.stringify(wa.webhooks.envelope({ messages: [wa.webhooks.text(WA_ALLOWED, text)], sender: WA_ALLOWED }));
    const raw: [string, string | Uint8Array, Set<number>?, Record<string, string>?][] = [
      ['not JSON', 'this is not json'],
      ['empty body', ''],
      ['whitespace body', '  \n '],
      ['JSON null', 'null'],
      ['JSON string', '"whatsapp_business_account"'],
      ['truncated JSON', valid('cut').slice(0, 60)],
      ['NaN literal', '{"object": NaN}'],
      ['number overflow', '{"object":"whatsapp_business_account","entry":1e400}'],
      ['BOM before JSON', `\ufeff${valid('bom')}`],
      // the signature is checked over the body decoded as UTF-8, which invalid bytes do not survive
      ['invalid UTF-8 in the text', invalidUtf8(valid('INVALID-UTF8')), REFUSED],
      ['4.5 MB body (over the webhook limit)', `{"object":"x","pad":"${'x'.repeat(4.5 * 1024 * 1024)}"}`],
      // text/plain bodies are not kept raw: the signature cannot match (401), or the type is refused (415)
      ['content-type text/plain', valid('plain'), new Set([401, 415]), { 'content-type': 'text/plain' }],
      [
        'form-encoded',
        'object=whatsapp_business_account',
        undefined,
        { 'content-type': 'application/x-www-form-urlencoded' },
      ],
    ];
    for (const [label, body, allowed, headers] of raw) {
      cases.push({
        label: `raw: ${label}`,
        send: async () => {
          const res = await post(url, body, { ...signed(body), ...headers });
          return statusCheck(res.status, res.error, allowed);
        },
      });
    }
    await runBatches(cases, { edge: 'whatsapp-webhook', tally, daemon, canary: canary(WA_ALLOWED), concurrent: 4 });
    expectAllPassed('whatsapp-webhook');
  }, 240_000);

  it('forged, missing and misplaced signatures are refused (401) unprocessed; a replayed delivery is processed once', async () => {
    const authRng = rng.fork('whatsapp-auth');
    const cases: Case[] = [];
    const refused = (label: string, headersFor: (raw: string) => Record<string, string>) => {
      const marker = `auth-wa-${label}`;
      const message = wa.webhooks.text(WA_ALLOWED, marker);
      const raw = JSON.stringify(wa.webhooks.envelope({ messages: [message], sender: WA_ALLOWED }));
      cases.push({
        label,
        send: async () => {
          const res = await post(url, raw, { 'content-type': 'application/json', ...headersFor(raw) });
          return statusCheck(res.status, res.error, REFUSED);
        },
        verify: () => {
          if (daemon.message('whatsapp', message.id) !== undefined) return `processed: inbox row ${message.id} exists`;
          if (model.requests.some((r) => lastUserText(r).includes(marker))) return 'the model saw the refused message';
          return null;
        },
      });
    };
    const sig = (raw: string, secret = APP_SECRET) => signWebhook(raw, secret);
    refused('no signature header', () => ({}));
    refused('empty signature', () => ({ 'x-hub-signature-256': '' }));
    refused('signed with the wrong secret', (raw) => ({ 'x-hub-signature-256': sig(raw, 'not-the-app-secret') }));
    refused('signed with an empty secret', (raw) => ({ 'x-hub-signature-256': sig(raw, '') }));
    refused('signature over another body', (raw) => ({ 'x-hub-signature-256': sig(`${raw} `) }));
    refused('signature of another valid delivery', () => ({
      'x-hub-signature-256': sig(JSON.stringify(wa.webhooks.envelope({ statuses: [] }))),
    }));
    refused('sha1= (the old X-Hub-Signature)', (raw) => ({
      'x-hub-signature-256': `sha1=${createHmac('sha1', APP_SECRET).update(raw).digest('hex')}`,
    }));
    refused('the old X-Hub-Signature header only', (raw) => ({
      'x-hub-signature': `sha1=${createHmac('sha1', APP_SECRET).update(raw).digest('hex')}`,
    }));
    refused('the signature in another header', (raw) => ({ 'x-signature': sig(raw), authorization: sig(raw) }));
    refused('hex without sha256=', (raw) => ({ 'x-hub-signature-256': sig(raw).slice(7) }));
    refused('sha512= prefix', (raw) => ({ 'x-hub-signature-256': sig(raw).replace('sha256=', 'sha512=') }));
    refused('truncated signature', (raw) => ({ 'x-hub-signature-256': sig(raw).slice(0, 40) }));
    refused('signature with one more hex digit', (raw) => ({ 'x-hub-signature-256': `${sig(raw)}0` }));
    refused('the secret itself as the signature', () => ({ 'x-hub-signature-256': `sha256=${APP_SECRET}` }));
    refused('8 KB signature', () => ({ 'x-hub-signature-256': `sha256=${'a'.repeat(8_192)}` }));
    refused('two signatures, comma-joined', (raw) => ({
      'x-hub-signature-256': `sha256=${'0'.repeat(64)}, ${sig(raw)}`,
    }));
    for (let i = 0; i < 30; i++) {
      const forged = `sha256=${authRng.string(64, '0123456789abcdef')}`;
      refused(`random signature #${i}`, () => ({ 'x-hub-signature-256': forged }));
    }
    // Meta signs no timestamp: a replayed delivery (the exact signed POST again, or two at once) is
    // accepted (200) and the inbox's wamid dedupe keeps it to one turn
    for (let i = 0; i < 5; i++) {
      const marker = `auth-wa-replay-${i}`;
      const from = waExtraUser(i);
      const raw = JSON.stringify(wa.webhooks.envelope({ messages: [wa.webhooks.text(from, marker)], sender: from }));
      const headers = signed(raw);
      cases.push({
        label: `a signed delivery replayed ${i % 2 === 0 ? 'after the first' : 'concurrently'} #${i}`,
        send: async () => {
          const answers =
            i % 2 === 0
              ? [await post(url, raw, headers), await post(url, raw, headers)]
              : await Promise.all([post(url, raw, headers), post(url, raw, headers)]);
          const statuses = answers.map((a) => a.status);
          return statuses.every((s) => s === 200) ? null : `answered ${statuses.join(' then ')}`;
        },
        verify: () => {
          const seen = model.requests.filter((r) => lastUserText(r).includes(marker)).length;
          return seen === 1 ? null : `the model saw the replayed message ${seen} times`;
        },
      });
    }
    await runBatches(cases, { edge: 'whatsapp-auth', tally, daemon, canary: canary(WA_AUTH_CANARY), concurrent: 4 });
    expectAllPassed('whatsapp-auth');
  }, 120_000);
});

/** The JSON text with bytes that are not UTF-8 (0xff, 0xfe, a cut sequence) after the marker. */
function invalidUtf8(json: string): Uint8Array {
  const [before, after] = json.split(/(?<=INVALID-UTF8)/);
  return Buffer.concat([
    Buffer.from(before ?? ''),
    Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82]),
    Buffer.from(after ?? ''),
  ]);
}
