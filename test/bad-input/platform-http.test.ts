// Bad input at the daemon's HTTP and Discord edges: Telegram webhook updates, Discord gateway
// dispatches, Slack HTTP events, and webhook authentication (secrets, signatures, replayed and old
// timestamps). One real daemon in-process (buildGatewayApp from HERMES_HOME, real SDKs against the
// fakes); after every batch it must be idle with nothing lost and still answer a valid message.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import {
  type DiscordCase,
  generatedDiscord,
  handWrittenDiscord,
  hostileDiscordTexts,
  Snowflakes,
} from './corpus/discord.js';
import { generatedSlack, handWrittenSlack, hostileSlackTexts, type SlackCase } from './corpus/slack.js';
import {
  dmUpdate,
  generatedTelegram,
  handWrittenTelegram,
  hostileTexts,
  type TelegramCase,
  TelegramIds,
} from './corpus/telegram.js';
import { type Case, runBatches } from './lib/batch.js';
import { type Daemon, startDaemon } from './lib/daemon.js';
import { jsonText } from './lib/mutate.js';
import {
  ALLOWED,
  type Canary,
  canaries,
  echoModel,
  type Fakes,
  lastUserText,
  platformSetup,
  post,
  SLACK_PATH,
  SLACK_SIGNING_SECRET,
  startFakes,
  TG_PATH,
  TG_SECRET,
} from './lib/platforms.js';
import { Rng, runSeed } from './lib/prng.js';
import { type Edge, Tally } from './lib/tally.js';
import { until } from './lib/wait.js';

const tally = new Tally();
const seed = runSeed();
const rng = new Rng(seed);
let model: FakeOpenAI;
let fakes: Fakes;
let daemon: Daemon;
let canary: Record<string, Canary>;

beforeAll(async () => {
  model = await startFakeOpenAI();
  echoModel(model);
  fakes = await startFakes();
  const { env, platforms } = platformSetup(fakes, 'http');
  daemon = await startDaemon({ env, modelUrl: model.url, config: { gateway: { platforms } } });
  await fakes.discord.until(() => fakes.discord.latestReady(), 15_000, 'the discord gateway session');
  canary = canaries(fakes, 'http', daemon.url);
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await fakes?.close();
  await model?.close();
  tally.report('platform-http');
}, 30_000);

/** A verify() for inputs that must be answered: their inbox row done, every reply chunk sent. */
function answered(platform: string, key: string | undefined): (() => string | null) | undefined {
  if (key === undefined) return undefined;
  return () => {
    const row = daemon.message(platform, key);
    if (row === undefined) return `never accepted (no inbox row ${key})`;
    if (row.status !== 'done') return `inbox row ${row.status}, expected done`;
    if (row.outbox.length === 0 || row.outbox.some((s) => s !== 'sent')) return `replies ${row.outbox.join(',')}`;
    return null;
  };
}

/** Answers a webhook sends for bad input: processed or ignored (200), refused as malformed (400), too large (413), wrong type (415). */
const CLEAR_ANSWERS = new Set([200, 400, 413, 415]);

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

const tgHeaders = { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': TG_SECRET };

describe('bad input over HTTP and the Discord gateway (one daemon)', () => {
  it('telegram webhook: every malformed update gets a clear answer, valid ones are answered once', async () => {
    const ids = new TelegramIds(600_000);
    const tgRng = rng.fork('telegram-webhook');
    const url = `${daemon.url}${TG_PATH}`;
    const updates: TelegramCase[] = [
      ...hostileTexts(ids, true),
      ...handWrittenTelegram(ids, { keepUpdateId: false }),
      ...generatedTelegram(tgRng, ids, 90, { keepUpdateId: false }),
    ];
    const cases: Case[] = updates.map((c) => ({
      label: c.label,
      send: async () => {
        const res = await post(url, jsonText(c.update), tgHeaders);
        return statusCheck(res.status, res.error);
      },
      ...(c.answerKey === undefined ? {} : { verify: answered('telegram', c.answerKey) }),
    }));
    const validText = (text: string) => JSON.stringify(dmUpdate(ids, text).update);
    const raw: [string, string | Uint8Array, Record<string, string>][] = [
      ['not JSON', 'this is not json', tgHeaders],
      ['empty body', '', tgHeaders],
      ['whitespace body', '   \n ', tgHeaders],
      ['JSON null', 'null', tgHeaders],
      ['JSON string', '"update"', tgHeaders],
      ['truncated JSON', validText('cut').slice(0, 40), tgHeaders],
      ['JSON with comments', `/* hi */ ${validText('comment')}`, tgHeaders],
      ['NaN literal', '{"update_id": NaN}', tgHeaders],
      ['number overflow', '{"update_id": 1e400, "message": {}}', tgHeaders],
      ['duplicate keys', `{"update_id":1,"update_id":"x",${validText('dup').slice(1)}`, tgHeaders],
      ['BOM before JSON', `\ufeff${validText('bom')}`, tgHeaders],
      ['invalid UTF-8 in the text', invalidUtf8(validText('INVALID-UTF8')), tgHeaders],
      ['overlong UTF-8 encoding', overlongUtf8(validText('OVERLONG')), tgHeaders],
      ['5 MB body', `{"update_id":1,"pad":"${'x'.repeat(5 * 1024 * 1024)}"}`, tgHeaders],
      ['content-type text/plain', validText('plain'), { ...tgHeaders, 'content-type': 'text/plain' }],
      ['no content-type', validText('no type'), { 'x-telegram-bot-api-secret-token': TG_SECRET }],
      ['form-encoded', 'update_id=1&message=x', { ...tgHeaders, 'content-type': 'application/x-www-form-urlencoded' }],
      [
        'multipart',
        '--b\r\nContent-Disposition: form-data; name="update_id"\r\n\r\n1\r\n--b--\r\n',
        { ...tgHeaders, 'content-type': 'multipart/form-data; boundary=b' },
      ],
      [
        'content-type with a bogus charset',
        validText('charset'),
        { ...tgHeaders, 'content-type': 'application/json; charset=ebcdic' },
      ],
    ];
    for (const [label, body, headers] of raw) {
      cases.push({
        label: `raw: ${label}`,
        send: async () => {
          const res = await post(url, body, headers);
          return statusCheck(res.status, res.error);
        },
      });
    }
    await runBatches(cases, {
      edge: 'telegram-webhook',
      tally,
      daemon,
      canary: canary.telegram!,
      concurrent: 4,
    });
    expectAllPassed('telegram-webhook');
  }, 240_000);

  it('discord gateway: malformed dispatches and frames are skipped, the session keeps answering', async () => {
    const discord = fakes.discord;
    const dm = discord.dmMessage({ user: ALLOWED.discord, content: 'template dm' });
    const guild = discord.guildMessage({ user: ALLOWED.discord, content: 'template guild', mention: true });
    const thread = discord.threadMessage({ user: ALLOWED.discord, content: 'template thread', mention: true });
    await until('the template messages answered', () => discord.sent.length >= 3, 20_000);
    const ids = new Snowflakes();
    const templates = [dm, guild, thread].map((m) => JSON.parse(JSON.stringify(m)) as Record<string, unknown>);
    const dmTemplate = templates[0]!;
    const connectionsBefore = discord.connectionCount();
    const deliver = (c: DiscordCase) => {
      if (c.input.kind === 'dispatch') discord.dispatch(c.input.t, c.input.d);
      else discord.sendRaw(c.input.frame);
    };
    const inputs: DiscordCase[] = [
      ...hostileDiscordTexts(ids, dmTemplate, (user) => discord.dmChannelId(user)),
      ...handWrittenDiscord(ids, dmTemplate),
      ...generatedDiscord(rng.fork('discord'), ids, templates, 90),
    ];
    const cases: Case[] = inputs.map((c) => ({
      label: c.label,
      send: async () => {
        deliver(c);
        return null;
      },
      ...(c.answerKey === undefined ? {} : { verify: answered('discord', c.answerKey) }),
    }));
    await runBatches(cases, {
      edge: 'discord-gateway',
      tally,
      daemon,
      canary: canary.discord!,
      afterBatch: async () => {
        // a reconnect is allowed (discord.js resumes); being left without a live session is not
        const live = await discord
          .until(() => discord.latestReady(), 15_000, 'a live session')
          .then(() => true)
          .catch(() => false);
        return live ? null : 'no live gateway session after the batch';
      },
    });
    console.log(
      `discord-gateway: ${discord.connectionCount() - connectionsBefore} reconnect(s) during ${inputs.length} inputs`,
    );
    expectAllPassed('discord-gateway');
  }, 240_000);

  it('slack http events: malformed signed events get 200 or 400, never a retry loop', async () => {
    const slack = fakes.slack;
    const url = `${daemon.url}${SLACK_PATH}`;
    const send = async (c: SlackCase) => {
      const signed = slack.signedRequest(jsonText(c.body));
      const res = await post(url, signed.rawBody, signed.headers);
      return statusCheck(res.status, res.error);
    };
    const inputs: SlackCase[] = [
      ...hostileSlackTexts(slack),
      ...handWrittenSlack(slack),
      ...generatedSlack(rng.fork('slack-http'), slack, 90),
    ];
    const cases: Case[] = inputs.map((c) => ({
      label: c.label,
      send: () => send(c),
      ...(c.answerKey === undefined ? {} : { verify: answered('slack', c.answerKey) }),
    }));
    const rawBodies: [string, string | Uint8Array][] = [
      ['not JSON', 'not json'],
      ['empty body', ''],
      ['truncated JSON', '{"type":"event_callback","event":{"type":"mess'],
      ['invalid UTF-8', invalidUtf8(JSON.stringify(slack.eventCallback(dmEvent('INVALID-UTF8'))))],
      ['5 MB body', `{"type":"event_callback","pad":"${'x'.repeat(5 * 1024 * 1024)}"}`],
    ];
    for (const [label, body] of rawBodies) {
      cases.push({
        label: `raw: ${label}`,
        send: async () => {
          const signed = signSlack(body);
          const res = await post(url, body, signed);
          // the signature is checked over the body decoded as UTF-8, which invalid bytes do not survive:
          // refused as unsigned (Slack itself only sends UTF-8)
          return statusCheck(res.status, res.error, label === 'invalid UTF-8' ? new Set([401]) : CLEAR_ANSWERS);
        },
      });
    }
    await runBatches(cases, { edge: 'slack-http', tally, daemon, canary: canary.slack!, concurrent: 4 });
    expectAllPassed('slack-http');
  }, 240_000);

  it('webhook authentication: bad or missing secrets and signatures, replayed and old timestamps are refused', async () => {
    const authRng = rng.fork('webhook-auth');
    const ids = new TelegramIds(800_000);
    const slack = fakes.slack;
    const cases: Case[] = [];
    const neverProcessed = (platform: string, key: string, marker: string) => () => {
      if (daemon.message(platform, key) !== undefined) return `processed: inbox row ${key} exists`;
      if (model.requests.some((r) => lastUserText(r).includes(marker))) return 'the model saw the refused message';
      return null;
    };
    // Telegram: X-Telegram-Bot-Api-Secret-Token
    const secrets: [string, Record<string, string>][] = [
      ['no secret header', {}],
      ['empty secret', { 'x-telegram-bot-api-secret-token': '' }],
      ['wrong secret', { 'x-telegram-bot-api-secret-token': 'wrong-secret' }],
      ['secret upper-cased', { 'x-telegram-bot-api-secret-token': TG_SECRET.toUpperCase() }],
      ['secret prefix', { 'x-telegram-bot-api-secret-token': TG_SECRET.slice(0, -1) }],
      ['secret twice', { 'x-telegram-bot-api-secret-token': `${TG_SECRET}${TG_SECRET}` }],
      ['secret and another, comma-joined', { 'x-telegram-bot-api-secret-token': `${TG_SECRET}, x` }],
      ['8 KB secret', { 'x-telegram-bot-api-secret-token': 'a'.repeat(8_192) }],
      ['secret in another header', { 'x-telegram-secret': TG_SECRET, authorization: `Bearer ${TG_SECRET}` }],
    ];
    for (let i = 0; i < 30; i++) {
      secrets.push([`random secret #${i}`, { 'x-telegram-bot-api-secret-token': authRng.string(authRng.int(1, 64)) }]);
    }
    for (const [label, headers] of secrets) {
      const marker = `auth-tg-${label}`;
      const { update, key } = dmUpdate(ids, marker);
      cases.push({
        label: `telegram: ${label}`,
        send: async () => {
          const res = await post(`${daemon.url}${TG_PATH}`, JSON.stringify(update), {
            'content-type': 'application/json',
            ...headers,
          });
          return statusCheck(res.status, res.error, new Set([401]));
        },
        verify: neverProcessed('telegram', key, marker),
      });
    }
    const url = `${daemon.url}${SLACK_PATH}`;
    const nowS = () => Math.floor(Date.now() / 1000);
    const slackRefused = (label: string, build: (body: string) => Record<string, string>) => {
      const marker = `auth-slack-${label}`;
      const event = dmEvent(marker);
      const body = JSON.stringify(slack.eventCallback(event));
      cases.push({
        label: `slack: ${label}`,
        send: async () => {
          const res = await post(url, body, { ...build(body), 'content-type': 'application/json' });
          return statusCheck(res.status, res.error, new Set([401]));
        },
        verify: neverProcessed('slack', `${event.channel}:${event.ts}`, marker),
      });
    };
    slackRefused('no signature headers', () => ({}));
    slackRefused('no timestamp', (b) => ({ 'x-slack-signature': signSlack(b)['x-slack-signature']! }));
    slackRefused('no signature', () => ({ 'x-slack-request-timestamp': String(nowS()) }));
    slackRefused('timestamp not a number', (b) => ({ ...signSlack(b), 'x-slack-request-timestamp': 'now' }));
    for (const [label, offset] of [
      ['timestamp 301 s old (replay window)', -301],
      ['timestamp one hour old', -3_600],
      ['timestamp one day old', -86_400],
      // 330, not 301: the request's own time (seconds on a loaded machine) brings a future stamp nearer
      ['timestamp 330 s in the future', 330],
      ['timestamp one day in the future', 86_400],
    ] as const) {
      slackRefused(label, (b) => signSlack(b, nowS() + offset));
    }
    slackRefused('timestamp 0', (b) => signSlack(b, 0));
    slackRefused('signed with the wrong secret', (b) => signSlack(b, nowS(), 'not-the-signing-secret'));
    slackRefused('signature over another body', (b) => signSlack(`${b} `));
    slackRefused('v1= instead of v0=', (b) => {
      const h = signSlack(b);
      return { ...h, 'x-slack-signature': h['x-slack-signature']!.replace('v0=', 'v1=') };
    });
    slackRefused('upper-case hex', (b) => {
      const h = signSlack(b);
      return { ...h, 'x-slack-signature': `v0=${h['x-slack-signature']!.slice(3).toUpperCase()}` };
    });
    slackRefused('truncated signature', (b) => {
      const h = signSlack(b);
      return { ...h, 'x-slack-signature': h['x-slack-signature']!.slice(0, 20) };
    });
    slackRefused('empty signature', (b) => ({ ...signSlack(b), 'x-slack-signature': '' }));
    slackRefused('signature without prefix', (b) => {
      const h = signSlack(b);
      return { ...h, 'x-slack-signature': h['x-slack-signature']!.slice(3) };
    });
    for (let i = 0; i < 30; i++) {
      const sig = `v0=${authRng.string(64, '0123456789abcdef')}`;
      slackRefused(`random signature #${i}`, (b) => ({ ...signSlack(b), 'x-slack-signature': sig }));
    }
    // replays: the exact same signed request twice is processed once; an old one is refused
    for (let i = 0; i < 5; i++) {
      const marker = `auth-slack-replay-${i}`;
      const event = dmEvent(marker);
      const body = JSON.stringify(slack.eventCallback(event));
      const headers = signSlack(body);
      cases.push({
        label: `slack: the same signed request replayed #${i}`,
        send: async () => {
          const first = await post(url, body, headers);
          const again = await post(url, body, headers);
          if (first.status !== 200 || again.status !== 200) return `answered ${first.status} then ${again.status}`;
          return null;
        },
        verify: () => {
          const seen = model.requests.filter((r) => lastUserText(r).includes(marker)).length;
          return seen === 1 ? null : `the model saw the replayed message ${seen} times`;
        },
      });
      const oldMarker = `auth-slack-old-replay-${i}`;
      const oldEvent = dmEvent(oldMarker);
      const oldBody = JSON.stringify(slack.eventCallback(oldEvent));
      const captured = signSlack(oldBody, nowS() - 600 - i * 60);
      cases.push({
        label: `slack: a captured request replayed ${10 + i} min later`,
        send: async () => {
          const res = await post(url, oldBody, captured);
          return statusCheck(res.status, res.error, new Set([401]));
        },
        verify: neverProcessed('slack', `${oldEvent.channel}:${oldEvent.ts}`, oldMarker),
      });
    }
    await runBatches(cases, { edge: 'webhook-auth', tally, daemon, canary: canary.slack!, concurrent: 4 });
    expectAllPassed('webhook-auth');
  }, 120_000);
});

function dmEvent(text: string) {
  return fakes.slack.messageEvent({ channel: ALLOWED.slack.dm, user: ALLOWED.slack.id, text, channelType: 'im' });
}

function signSlack(
  body: string | Uint8Array,
  timestampS = Math.floor(Date.now() / 1000),
  secret = SLACK_SIGNING_SECRET,
) {
  const hmac = createHmac('sha256', secret).update(`v0:${timestampS}:`).update(body).digest('hex');
  return {
    'content-type': 'application/json',
    'x-slack-request-timestamp': String(timestampS),
    'x-slack-signature': `v0=${hmac}`,
  };
}

/** The JSON text with the bytes of `marker` followed by bytes that are not UTF-8 (0xff, 0xfe, a cut sequence). */
function invalidUtf8(json: string): Uint8Array {
  const [before, after] = json.split(/(?<=INVALID-UTF8)/);
  return Buffer.concat([
    Buffer.from(before ?? ''),
    Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82]),
    Buffer.from(after ?? ''),
  ]);
}

/** The JSON text with an overlong encoding of "/" (0xc0 0xaf) after the marker. */
function overlongUtf8(json: string): Uint8Array {
  const [before, after] = json.split(/(?<=OVERLONG)/);
  return Buffer.concat([
    Buffer.from(before ?? ''),
    Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80]),
    Buffer.from(after ?? ''),
  ]);
}
