// Bad input on email: mail delivered to the bot's mailbox on the fake IMAP server, read by one real
// daemon in IDLE, answered through the fake SMTP server. Malformed MIME, odd and unknown charsets,
// huge mails, hostile headers, mails without Message-ID, forged loops and strangers, seeded
// mutations, redeliveries and a connection dropped right after a mail. Mail is read one after
// another, so the canary answered after each batch shows that nothing stalled the mailbox; a loop
// or a stranger must never reach the gateway, a valid mail must be answered once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeImap, startFakeImap } from '../fakes/email-imap.js';
import { type FakeSmtp, startFakeSmtp } from '../fakes/email-smtp.js';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import {
  emailCorpus,
  MAIL_ALLOWED,
  MAIL_ALLOWED_USERS,
  MAIL_BOT,
  MAIL_MAX_BYTES,
  mailExtraUser,
  mailText,
} from './corpus/email.js';
import { type Case, runBatches } from './lib/batch.js';
import { type Daemon, startDaemon } from './lib/daemon.js';
import { echoModel, lastUserText } from './lib/platforms.js';
import { Rng, runSeed } from './lib/prng.js';
import { type Edge, Tally } from './lib/tally.js';
import { eventually, until } from './lib/wait.js';

const PASSWORD = 'bad-input-app-password';
const tally = new Tally();
const seed = runSeed();
const rng = new Rng(seed);
let model: FakeOpenAI;
let imap: FakeImap;
let smtp: FakeSmtp;
let daemon: Daemon;

beforeAll(async () => {
  model = await startFakeOpenAI();
  echoModel(model);
  imap = await startFakeImap({ user: MAIL_BOT, password: PASSWORD });
  smtp = await startFakeSmtp({ user: MAIL_BOT, password: PASSWORD });
  daemon = await startDaemon({
    env: {
      EMAIL_ADDRESS: MAIL_BOT,
      EMAIL_PASSWORD: PASSWORD,
      EMAIL_IMAP_HOST: '127.0.0.1',
      EMAIL_IMAP_PORT: String(imap.port),
      EMAIL_SMTP_HOST: '127.0.0.1',
      EMAIL_SMTP_PORT: String(smtp.port),
      EMAIL_ALLOWED_USERS: MAIL_ALLOWED_USERS.join(','),
    },
    modelUrl: model.url,
    config: {
      gateway: {
        platforms: {
          email: { imap_security: 'none', smtp_security: 'none', smtp_retry_ms: 200, max_mail_bytes: MAIL_MAX_BYTES },
        },
      },
    },
  });
  await until('the mailbox in IDLE', () => imap.idling() > 0, 15_000);
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await imap?.close();
  await smtp?.close();
  await model?.close();
  tally.report('platform-email');
}, 30_000);

function answered(key: string): () => string | null {
  return () => {
    const row = daemon.message('email', key);
    if (row === undefined) return `never accepted (no inbox row ${key.slice(0, 60)})`;
    if (row.status !== 'done') return `inbox row ${row.status}, expected done`;
    if (row.outbox.length === 0 || row.outbox.some((s) => s !== 'sent')) return `replies ${row.outbox.join(',')}`;
    return null;
  };
}

const refused = (key: string) => (): string | null =>
  daemon.message('email', key) === undefined ? null : 'reached the gateway (it must be refused before)';

const seenByModel = (marker: string) => model.requests.filter((r) => lastUserText(r).includes(marker)).length;

function expectAllPassed(edge: Edge): void {
  const { tried, passed } = tally.count(edge);
  expect(tried).toBeGreaterThan(0);
  expect(tally.failuresOf(edge), `seed ${seed}`).toEqual([]);
  expect(passed).toBe(tried);
}

describe('bad input in the mailbox (one daemon)', () => {
  it('email: malformed and hostile mail is answered or refused clearly, loops never reach the gateway, the mailbox keeps going', async () => {
    const cases: Case[] = emailCorpus(rng.fork('email-mail'), 80).map((c) => ({
      label: c.label,
      send: async () => {
        imap.deliver(c.raw);
        return null;
      },
      ...(c.answerKey !== undefined
        ? { verify: answered(c.answerKey) }
        : c.refusedKey !== undefined
          ? { verify: refused(c.refusedKey) }
          : {}),
    }));
    // the same mail twice (a client sending again, a copy filed twice): one answer
    for (let i = 0; i < 3; i++) {
      const marker = `email-redelivered-${i}`;
      const mail = mailText(mailExtraUser(70 + i), marker);
      cases.push({
        label: `a mail delivered twice #${i}`,
        send: async () => {
          imap.deliver(mail.raw);
          imap.deliver(mail.raw);
          return null;
        },
        verify: () =>
          answered(mail.key)() ?? (seenByModel(marker) === 1 ? null : `the model saw it ${seenByModel(marker)} times`),
      });
    }
    // the connection dropped right after a mail: read before the drop or after the reconnect, once
    for (let i = 0; i < 2; i++) {
      const marker = `email-dropped-${i}`;
      const mail = mailText(mailExtraUser(75 + i), marker);
      cases.push({
        label: `the IMAP connection dropped right after a mail #${i}`,
        send: async () => {
          imap.deliver(mail.raw);
          imap.dropConnections();
          return null;
        },
        verify: () =>
          answered(mail.key)() ?? (seenByModel(marker) === 1 ? null : `the model saw it ${seenByModel(marker)} times`),
      });
    }
    const opened = imap.connectionsOpened();
    await runBatches(cases, {
      edge: 'email-mail',
      tally,
      daemon,
      batchSize: 40,
      canary: async (tag) => {
        imap.deliver(mailText(MAIL_ALLOWED, `canary ${tag}`).raw);
        await until(
          `the email canary ${tag}`,
          () => smtp.mails.some((m) => (m.parsed.text ?? '').includes(tag)),
          20_000,
        );
      },
      afterBatch: async () =>
        (await eventually(() => imap.openConnections() === 1 && imap.idling() === 1, 15_000))
          ? null
          : `${imap.openConnections()} IMAP connections open (${imap.idling()} in IDLE) after the batch`,
    });
    console.log(`email-mail: ${imap.connectionsOpened() - opened} reconnect(s) during ${cases.length} inputs`);
    const huge = model.requests.filter((r) => lastUserText(r).includes('over the 0.5 MB this gateway reads'));
    expect(huge).toHaveLength(1);
    expectAllPassed('email-mail');
  }, 300_000);
});
