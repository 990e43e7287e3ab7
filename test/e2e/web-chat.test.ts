// The web chat end to end: `hermes gateway run` (its bundled `web` platform on 127.0.0.1) with the
// fake model streaming. A visitor gets a pairing code over SSE; once `hermes pairing approve web
// CODE` ran, it is answered: a streamed answer as one message and its edits; an uploaded image
// reaches the model as an image part; a reload with Last-Event-ID gets what it missed; /new works;
// bad requests get a 4xx and the gateway goes on.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imagePartsOf } from '../fakes/openai-server.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { readSse, type SseEvent } from '../helpers/sse-client.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();

// a console login is asked (a token is set), so a browser without a console session is a visitor
const CONFIG = `media:
  max_bytes: 100000
display:
  streaming: true
  stream_interval_ms: 150
gateway:
  console:
    token: e2e-console-token
`;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Waits until the gateway runs and queues no turn (its /metrics gauges). */
async function idle(url: string): Promise<void> {
  await waitFor(
    async () => {
      const metrics = await (await fetch(`${url}/metrics`)).text();
      return /^hermes_turns_running 0$/m.test(metrics) && /^hermes_turns_queued 0$/m.test(metrics);
    },
    { what: 'the gateway idle (no turn running or queued)' },
  );
}

const dataOf = (event: SseEvent | undefined) => JSON.parse(event?.data ?? '{}') as { id: string; text: string };

describe('the web chat through hermes gateway run', () => {
  it('pairing, a streamed answer, an image, a replay after a reload, /new, bad input and a stop with a stream open', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), CONFIG);
    const env = { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model' };
    const gw = await spawnGateway(env);
    let stopped = false;
    try {
      const session = await fetch(`${gw.url}/chat/api/session`);
      const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const { csrf, operator } = (await session.json()) as { csrf: string; operator: boolean };
      expect(operator).toBe(false);
      const headers = { cookie, 'x-hermes-csrf': csrf };
      const post = (text: string) =>
        fetch(`${gw.url}/chat/api/messages`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ text }),
        });
      let stream = readSse(`${gw.url}/chat/api/stream`, { cookie });
      await stream.opened;

      // a stranger: the pipeline answers with a pairing code, the model is never asked
      expect((await post('hello?')).status).toBe(202);
      const [pairing] = await stream.next(1, 10_000);
      expect(pairing?.event).toBe('message');
      const code = /pairing code is (\S+)/.exec(dataOf(pairing).text)?.[1] ?? '';
      expect(code).not.toBe('');
      expect(openai.server.requests).toHaveLength(0);
      const approved = await runHermes(['pairing', 'approve', 'web', code], { env });
      expect(approved.code).toBe(0);

      // a streamed answer: one message, then edits of it ending with the whole text
      const answer = 'Streaming to the browser: every word arrives, edit by edit, until the end.';
      openai.server.script({ text: answer, chunkDelayMs: 120 });
      expect((await post('stream it')).status).toBe(202);
      await waitFor(() => stream.events.some((e) => e.event === 'edit' && dataOf(e).text === answer));
      await idle(gw.url); // the turn is over: the next message does not interrupt it
      const turn = stream.events.slice(1);
      expect(turn[0]?.event).toBe('message');
      const id = dataOf(turn[0]).id;
      expect(turn.filter((e) => e.event === 'edit').length).toBeGreaterThanOrEqual(1);
      expect(turn.every((e) => dataOf(e).id === id)).toBe(true);

      // an upload reaches the model as an image part with the file's bytes
      openai.server.script({ text: 'A one-pixel image.' });
      const form = new FormData();
      form.set('text', 'what is this?');
      form.set('file', new Blob([PNG], { type: 'image/png' }), 'pixel.png');
      const uploaded = await fetch(`${gw.url}/chat/api/messages`, { method: 'POST', headers, body: form });
      expect(uploaded.status).toBe(202);
      await waitFor(() => stream.events.some((e) => dataOf(e).text === 'A one-pixel image.'));
      expect(imagePartsOf(openai.server.requests.at(-1))).toEqual([{ mimeType: 'image/png', data: PNG }]);
      await idle(gw.url);

      // the page reloads while an answer is on its way: the next stream resumes after the last id seen
      const lastSeen = stream.events.at(-1)?.id ?? '';
      stream.close();
      openai.server.script({ text: 'Kept for you while you were away.' });
      expect((await post('answer while I reload')).status).toBe(202);
      // the turn ended, its answer sent, while no stream was open
      await waitFor(() => openai.server.pending() === 0);
      await idle(gw.url);
      stream = readSse(`${gw.url}/chat/api/stream`, { cookie, 'last-event-id': lastSeen });
      await waitFor(() => stream.events.some((e) => dataOf(e).text === 'Kept for you while you were away.'));
      expect(stream.events.some((e) => e.id === lastSeen)).toBe(false); // nothing seen before is sent again

      // /new goes through the commands
      expect((await post('/new')).status).toBe(202);
      await waitFor(() => stream.events.some((e) => dataOf(e).text === 'Started a new session.'));

      // bad requests: a clear 4xx each, and the gateway goes on
      expect((await post('   ')).status).toBe(400);
      const forged = await fetch(`${gw.url}/chat/api/messages`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'x-hermes-csrf': 'forged' },
        body: JSON.stringify({ text: 'hi' }),
      });
      expect(forged.status).toBe(403);
      const crossSite = await fetch(`${gw.url}/chat/api/messages`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', origin: 'https://evil.example' },
        body: JSON.stringify({ text: 'hi' }),
      });
      expect(crossSite.status).toBe(403);
      const big = new FormData();
      big.set('file', new Blob([Buffer.alloc(150_000, 1)]), 'big.bin');
      const tooBig = await fetch(`${gw.url}/chat/api/messages`, { method: 'POST', headers, body: big });
      expect(tooBig.status).toBe(413);
      expect(await tooBig.json()).toEqual({
        error: 'the file "big.bin" is 150000 bytes; media.max_bytes allows 100000',
      });
      openai.server.script({ text: 'Still here.' });
      expect((await post('still there?')).status).toBe(202);
      await waitFor(() => stream.events.some((e) => dataOf(e).text === 'Still here.'));

      // a stream still open does not hold the gateway's stop: it is ended
      stopped = true;
      expect(await gw.stop()).toBe(0);
      await waitFor(() => stream.ended());
    } finally {
      if (!stopped) await gw.stop();
    }
  });
});
