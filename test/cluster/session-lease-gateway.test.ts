// Two `hermes gateway run` instances on one PostgreSQL database, the API platform behind them as a
// load balancer would spread it: two requests of one session (`x-hermes-session`) sent at once, one
// to each instance, run one after the other (the session lease), and the second sees the first's
// exchange although another instance ran it (its cached transcript is read again under the lease).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usePostgres } from '../helpers/postgres.js';
import { tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();
const postgres = usePostgres();
const KEY = 'cluster-api-key-0123456789';

async function instance(url: string, id: string): Promise<RunningGateway> {
  const home = tempHome();
  writeFileSync(join(home, 'config.yaml'), 'state:\n  backend: postgres\n');
  return spawnGateway(
    {
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      HERMES_DATABASE_URL: url,
      HERMES_INSTANCE_ID: id,
      API_SERVER_KEY: KEY,
    },
    30_000,
  );
}

async function ask(gw: RunningGateway, text: string): Promise<string> {
  const res = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'x-hermes-session': 'shared-1' },
    body: JSON.stringify({ model: 'hermes', messages: [{ role: 'user', content: text }] }),
  });
  const body = (await res.json()) as { choices?: { message: { content: string } }[] };
  return body.choices?.[0]?.message.content ?? `HTTP ${res.status}`;
}

describe('one run per session across two instances', () => {
  it('runs two requests of one session one after the other, the second with the first in its history', async () => {
    const url = await postgres.server.newDatabase('lease');
    const [a, b] = await Promise.all([instance(url, 'gw-a'), instance(url, 'gw-b')]);
    const spans: { text: string; start: number; end: number }[] = [];
    openai.server.respond(async (request) => {
      const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
      const last = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
      const span = { text: last, start: Date.now(), end: 0 };
      spans.push(span);
      await new Promise((r) => setTimeout(r, 700));
      span.end = Date.now();
      const seen = messages.filter((m) => m.role !== 'system').map((m) => m.content);
      return { text: `${last} after [${seen.slice(0, -1).join(' | ')}]` };
    });
    try {
      const first = ask(a, 'one');
      await new Promise((r) => setTimeout(r, 150)); // the first reaches its model call first
      const second = ask(b, 'two');
      const [answerOne, answerTwo] = await Promise.all([first, second]);
      expect(answerOne).toBe('one after []');
      expect(answerTwo).toBe('two after [one | one after []]');
      expect(spans).toHaveLength(2);
      expect(spans[1]?.start).toBeGreaterThanOrEqual(spans[0]?.end ?? Infinity);
    } finally {
      openai.server.respond(undefined);
      expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
    }
  });
});
