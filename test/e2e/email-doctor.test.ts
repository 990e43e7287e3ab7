// `hermes doctor` on email: an IMAP login that opens the mailbox read-only, then an SMTP handshake
// with login, at the servers the gateway would use; a refused password fails naming the server and
// its answer, never the password.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeImap, startFakeImap } from '../fakes/email-imap.js';
import { type FakeSmtp, startFakeSmtp } from '../fakes/email-smtp.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const BOT = 'hermes@example.test';
const PASSWORD = 'doctor-app-password';
const openai = useFakeOpenAI();
let imap: FakeImap;
let smtp: FakeSmtp;
beforeAll(async () => {
  imap = await startFakeImap({ user: BOT, password: PASSWORD });
  smtp = await startFakeSmtp({ user: BOT, password: PASSWORD });
});
afterAll(async () => {
  await imap.close();
  await smtp.close();
});

const doctor = (env: Record<string, string> = {}) => {
  openai.server.respond(() => ({ text: 'OK' }));
  const home = tempHome();
  writeFileSync(
    join(home, 'config.yaml'),
    'gateway:\n  platforms:\n    email:\n      imap_security: none\n      smtp_security: none\n',
  );
  return runHermes(['doctor'], {
    env: {
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      EMAIL_ADDRESS: BOT,
      EMAIL_PASSWORD: PASSWORD,
      EMAIL_IMAP_HOST: '127.0.0.1',
      EMAIL_IMAP_PORT: String(imap.port),
      EMAIL_SMTP_HOST: '127.0.0.1',
      EMAIL_SMTP_PORT: String(smtp.port),
      ...env,
    },
  });
};

describe('hermes doctor checks email', () => {
  it('passes when both logins work; fails naming the server when IMAP or SMTP refuses, never printing the password', async () => {
    const ok = await doctor();
    expect(ok.stdout).toContain(`✓ platform email: IMAP login to 127.0.0.1:${imap.port} (INBOX has`);
    expect(ok.stdout).toContain(`SMTP login to 127.0.0.1:${smtp.port} as ${BOT}`);
    expect(ok.code).toBe(0);
    expect(imap.commands.some((c) => c.name === 'EXAMINE')).toBe(true);
    expect(smtp.logins.at(-1)).toEqual({ user: BOT, ok: true });

    const badImap = await doctor({ EMAIL_IMAP_PASSWORD: 'wrong-imap-password' });
    expect(badImap.stdout).toContain(`✗ platform email: IMAP 127.0.0.1:${imap.port} (${BOT}):`);
    expect(badImap.stdout).toMatch(/Invalid credentials|Authentication/i);
    expect(badImap.stdout).not.toContain('wrong-imap-password');
    expect(badImap.code).toBe(1);

    const badSmtp = await doctor({ EMAIL_SMTP_PASSWORD: 'wrong-smtp-password' });
    expect(badSmtp.stdout).toContain(`✗ platform email: SMTP 127.0.0.1:${smtp.port} (${BOT}):`);
    expect(badSmtp.stdout).toContain('535');
    expect(badSmtp.stdout).not.toContain('wrong-smtp-password');
    expect(badSmtp.code).toBe(1);
  });
});
