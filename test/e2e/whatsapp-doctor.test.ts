// `hermes doctor` on WhatsApp: the access token is asked about once at the Graph API the gateway
// would use (GET /<phone number id>): accepted shows the number, a refused token fails with Meta's
// reason and never prints the token, a missing app secret or verify token fails before any call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeWhatsApp, startFakeWhatsApp } from '../fakes/whatsapp-server.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();
let wa: FakeWhatsApp;
beforeAll(async () => {
  wa = await startFakeWhatsApp();
});
afterAll(async () => {
  await wa.close();
});

const doctor = (env: Record<string, string>) => {
  openai.server.respond(() => ({ text: 'OK' }));
  return runHermes(['doctor'], {
    env: {
      HERMES_HOME: tempHome(),
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      WHATSAPP_PHONE_NUMBER_ID: wa.phoneNumberId,
      WHATSAPP_APP_SECRET: wa.appSecret,
      WHATSAPP_VERIFY_TOKEN: 'doctor-verify-token',
      WHATSAPP_API_URL: wa.apiUrl,
      ...env,
    },
  });
};

describe('hermes doctor checks WhatsApp', () => {
  it('an accepted token shows the business number; a refused one fails naming why, never the token', async () => {
    const ok = await doctor({ WHATSAPP_ACCESS_TOKEN: wa.token });
    expect(ok.stdout).toContain(`✓ platform whatsapp: token accepted (phone number ${wa.displayNumber} (Hermes Test))`);
    expect(ok.stdout).not.toContain(wa.token);
    expect(ok.code).toBe(0);
    expect(wa.calls.some((c) => c.method === 'GET' && c.path === `/${wa.phoneNumberId}`)).toBe(true);
    const refused = await doctor({ WHATSAPP_ACCESS_TOKEN: 'EAAGwrongdoctortoken' });
    expect(refused.stdout).toContain(
      `✗ platform whatsapp: ${wa.apiUrl} refused the token: HTTP 401 (#190) Access token has expired`,
    );
    expect(refused.stdout).not.toContain('EAAGwrongdoctortoken');
    expect(refused.code).toBe(1);
  });

  it('a missing app secret fails the check before any call', async () => {
    const before = wa.calls.length;
    const r = await doctor({ WHATSAPP_ACCESS_TOKEN: wa.token, WHATSAPP_APP_SECRET: '' });
    expect(r.stdout).toContain('✗ platform whatsapp: WHATSAPP_APP_SECRET not set');
    expect(r.code).toBe(1);
    expect(wa.calls.length).toBe(before);
  });
});
