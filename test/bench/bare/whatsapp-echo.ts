// The bare WhatsApp baseline, as its own process. Meta maintains no Node SDK for the Cloud API (its
// WhatsApp-Nodejs-SDK stopped at whatsapp@0.0.5-Alpha, for Graph API v16; `npm install whatsapp`
// now gets an empty 1.0.0 with no repository), so a developer writes what Meta's getting-started
// guide shows: a webhook receiver on Node's own HTTP server (the GET verification handshake, POSTs
// checked against X-Hub-Signature-256, answered 200 at once as Meta asks) and `fetch` to the Graph
// API's /{phone-number-id}/messages for the answer to each text message (or, as the plain echo
// bot, a fixed text; see model.ts); the sender is the chat whose history it keeps.
// Settings from the environment: BENCH_WHATSAPP_API_URL (…/v21.0), BENCH_WHATSAPP_TOKEN,
// BENCH_WHATSAPP_PHONE_NUMBER_ID, BENCH_WHATSAPP_APP_SECRET, BENCH_WHATSAPP_VERIFY_TOKEN,
// BENCH_MODEL_URL (…/v1). Prints {"ready":true,"port":N} once it listens on 127.0.0.1.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { announceReady, answerer, exitOnSignal, setting } from './model.js';

interface WebhookBody {
  entry?: { changes?: { value?: { messages?: { from: string; type: string; text?: { body: string } }[] } }[] }[];
}

const ask = await answerer();
const apiUrl = setting('BENCH_WHATSAPP_API_URL');
const token = setting('BENCH_WHATSAPP_TOKEN');
const phoneNumberId = setting('BENCH_WHATSAPP_PHONE_NUMBER_ID');
const appSecret = setting('BENCH_WHATSAPP_APP_SECRET');
const verifyToken = setting('BENCH_WHATSAPP_VERIFY_TOKEN');

async function sendText(to: string, body: string): Promise<void> {
  const res = await fetch(`${apiUrl}/${phoneNumberId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messaging_product: 'whatsapp', to, type: 'text', text: { body } }),
  });
  if (!res.ok) throw new Error(`Graph API answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

function signed(raw: Buffer, header: string | string[] | undefined): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`);
  const given = Buffer.from(typeof header === 'string' ? header : '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method === 'GET') {
    const ok =
      url.searchParams.get('hub.mode') === 'subscribe' && url.searchParams.get('hub.verify_token') === verifyToken;
    res.writeHead(ok ? 200 : 403).end(ok ? (url.searchParams.get('hub.challenge') ?? '') : '');
    return;
  }
  const raw = await readBody(req);
  if (!signed(raw, req.headers['x-hub-signature-256'])) {
    res.writeHead(401).end();
    return;
  }
  res.writeHead(200).end();
  const body = JSON.parse(raw.toString('utf8')) as WebhookBody;
  for (const entry of body.entry ?? []) {
    for (const change of entry.changes ?? []) {
      for (const message of change.value?.messages ?? []) {
        if (message.type !== 'text' || message.text === undefined) continue;
        ask(message.from, message.text.body)
          .then((answer) => sendText(message.from, answer))
          .catch((error: unknown) => process.stderr.write(`bare whatsapp bot: ${String(error)}\n`));
      }
    }
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
announceReady({ port: typeof address === 'object' && address !== null ? address.port : 0 });
exitOnSignal(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);
