// Two `hermes gateway run` instances on one PostgreSQL database share each user's limits: with
// `turns_per_minute: 2`, a turn on A and one on B use up the minute, and the next one is refused on
// both instances with 429 (no model request made), because the count is one row in the database.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usePostgres } from '../helpers/postgres.js';
import { tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();
const postgres = usePostgres();

const CONFIG = [
  'state:',
  '  backend: postgres',
  'access:',
  '  tiers:',
  '    admin:',
  '      limits:',
  '        turns_per_minute: 2',
  '',
].join('\n');

const turn = (url: string) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'hermes', messages: [{ role: 'user', content: 'hi' }] }),
  });

describe('budgets across instances on PostgreSQL', () => {
  it("a user's turns per minute are counted once for both instances", async () => {
    const url = await postgres.server.newDatabase('budgets');
    const start = (instance: string) => {
      const home = tempHome();
      writeFileSync(join(home, 'config.yaml'), CONFIG);
      return spawnGateway(
        {
          HERMES_HOME: home,
          OPENAI_BASE_URL: openai.server.url,
          HERMES_INFERENCE_MODEL: 'test-model',
          HERMES_DATABASE_URL: url,
          HERMES_INSTANCE_ID: instance,
        },
        30_000,
      );
    };
    const a = await start('gw-a');
    const b = await start('gw-b');
    try {
      openai.server.script({ text: 'one' }, { text: 'two' });
      expect((await turn(a.url)).status).toBe(200);
      expect((await turn(b.url)).status).toBe(200);
      const asked = openai.server.requests.length;
      for (const gw of [a, b]) {
        const refused = await turn(gw.url);
        expect(refused.status).toBe(429);
        const { error } = (await refused.json()) as { error: { code: string; message: string } };
        expect(error.code).toBe('rate_limit_exceeded');
        expect(error.message).toMatch(/^You have reached your limit of 2 turns a minute/);
      }
      expect(openai.server.requests.length).toBe(asked);
    } finally {
      expect(await a.stop()).toBe(0);
      expect(await b.stop()).toBe(0);
    }
  });
});
