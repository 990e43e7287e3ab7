// The bare Signal baseline, as its own process, against signal-cli's JSON-RPC HTTP daemon
// (`signal-cli -a NUMBER daemon --http`; there is no Signal bot SDK): its Server-Sent Events stream
// (GET /api/v1/events) read with `fetch` and split into events by hand (Node 20 has no
// EventSource), and the answer to each text message (or, as the plain echo bot, a fixed text; see
// model.ts) sent with a JSON-RPC `send` POSTed to /api/v1/rpc; the sender is the chat whose
// history it keeps. Settings from the environment: BENCH_SIGNAL_HTTP_URL, BENCH_MODEL_URL (…/v1).
// Prints {"ready":true} once the event stream is open.
import { announceReady, answerer, exitOnSignal, setting } from './model.js';

interface Received {
  envelope?: { source?: string; sourceNumber?: string | null; dataMessage?: { message?: string | null } };
}

const ask = await answerer();
const daemon = setting('BENCH_SIGNAL_HTTP_URL');
const stopping = new AbortController();
let rpcId = 0;

async function send(recipient: string, message: string): Promise<void> {
  const res = await fetch(`${daemon}/api/v1/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'send', params: { recipient: [recipient], message }, id: ++rpcId }),
  });
  const answer = (await res.json()) as { error?: { message: string } };
  if (answer.error !== undefined) throw new Error(`send: ${answer.error.message}`);
}

function onEvent(name: string, data: string): void {
  if (name !== 'receive') return;
  const { envelope } = JSON.parse(data) as Received;
  const text = envelope?.dataMessage?.message;
  const from = envelope?.sourceNumber ?? envelope?.source;
  if (typeof text !== 'string' || text === '' || typeof from !== 'string') return;
  ask(from, text)
    .then((answer) => send(from, answer))
    .catch((error: unknown) => process.stderr.write(`bare signal bot: ${String(error)}\n`));
}

const res = await fetch(`${daemon}/api/v1/events`, { signal: stopping.signal });
if (!res.ok || res.body === null) throw new Error(`the event stream answered ${res.status}`);
announceReady();
exitOnSignal(async () => stopping.abort());
// text/event-stream: events end with a blank line; `event:` names one, `data:` lines carry it
const decoder = new TextDecoder();
let buffer = '';
try {
  for await (const chunk of res.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      let name = 'message';
      const data: string[] = [];
      for (const line of buffer.slice(0, end).split('\n')) {
        if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      buffer = buffer.slice(end + 2);
      if (data.length > 0) onEvent(name, data.join('\n'));
      end = buffer.indexOf('\n\n');
    }
  }
} catch (error) {
  if (!stopping.signal.aborted) throw error;
}
