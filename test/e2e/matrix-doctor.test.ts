// `hermes doctor` on Matrix: the homeserver is asked whoami with MATRIX_ACCESS_TOKEN at
// MATRIX_HOMESERVER_URL; an accepted token passes naming its user, a refused one fails with the
// server's errcode and never the token, a MATRIX_USER_ID of someone else fails naming both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMatrix, startFakeMatrix } from '../fakes/matrix-server.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();
let matrix: FakeMatrix;
beforeAll(async () => {
  matrix = await startFakeMatrix();
});
afterAll(async () => {
  await matrix.close();
});

const doctor = (env: Record<string, string>) => {
  openai.server.respond(() => ({ text: 'OK' }));
  return runHermes(['doctor'], {
    env: {
      HERMES_HOME: tempHome(),
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      MATRIX_HOMESERVER_URL: matrix.url,
      MATRIX_ACCESS_TOKEN: matrix.accessToken,
      ...env,
    },
  });
};

describe('hermes doctor checks Matrix', () => {
  it('passes when whoami accepts the token; fails with the errcode when it is refused, never printing it', async () => {
    const ok = await doctor({});
    expect(ok.stdout).toContain(`✓ platform matrix: token accepted (whoami: ${matrix.bot.userId})`);
    expect(ok.code).toBe(0);
    expect(matrix.requests.some((r) => r.path === '/_matrix/client/v3/account/whoami')).toBe(true);
    const refused = await doctor({ MATRIX_ACCESS_TOKEN: 'syt_not_the_token' });
    expect(refused.stdout).toContain(
      `✗ platform matrix: ${matrix.url} refused the token: HTTP 401 M_UNKNOWN_TOKEN: Invalid access token passed.`,
    );
    expect(refused.stdout + refused.stderr).not.toContain('syt_not_the_token');
    expect(refused.code).toBe(1);
  });

  it('fails when the token belongs to another user than MATRIX_USER_ID', async () => {
    const r = await doctor({ MATRIX_USER_ID: '@someone:else.org' });
    expect(r.stdout).toContain(`it belongs to ${matrix.bot.userId}, not MATRIX_USER_ID @someone:else.org`);
    expect(r.code).toBe(1);
  });
});
