// file: index.ts
/**
 * Echo: a tiny chat service, as an example of a platform plugin written against @hermes/plugin-sdk.
 * Its HTTP API (bearer ECHO_TOKEN): GET /me checks the token; GET /updates?offset=N long-polls for
 * the messages with id >= N; POST /messages { chat, text } answers { id }, or 429 with
 * { retry_after_ms } when sent too fast.
 */
import {
  type AdapterDeps,
  backoffDelayMs,
  createPlatformKit,
  definePlugin,
  envCredential,
  type InboundSink,
  type OutboundMessage,
  type PlatformAdapter,
  type PlatformCapabilities,
  type PlatformContext,
  type PlatformFactory,
  renderTableLines,
  type SendResult,
  settingsReader,
  takeTable,
  userMessage,
} from '@hermes/plugin-sdk';

const PLATFORM = 'echo';

export const ECHO_CAPABILITIES: PlatformCapabilities = {
  maxMessageLength: 1000,
  formatting: 'plain',
  editing: false,
  typing: false,
  threads: false,
};

/** One message as the Echo API hands it over. */
interface EchoUpdate {
  id: number;
  chat: { id: string; type: 'dm' | 'group' };
  from: { id: string; name: string };
  text: string;
  mentions_bot?: boolean;
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Markdown to plain text: emphasis markers dropped, tables laid out in aligned columns. */
export function formatPlain(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    const table = takeTable(lines, i);
    if (table !== undefined) {
      out.push(...renderTableLines(table.rows, (cell) => cell.replace(/\*\*|__|`/g, '')));
      i = table.next;
    } else out.push((lines[i++] ?? '').replace(/\*\*|__/g, ''));
  }
  return out.join('\n');
}

/** Creates the adapter; a wrong setting throws here, nothing touches the network before start(). */
export function createEchoAdapter(context: PlatformContext, deps: AdapterDeps = {}): PlatformAdapter {
  const read = settingsReader(context.settings, PLATFORM);
  const apiUrl = read.string('api_url');
  if (apiUrl === undefined || !/^https?:\/\//.test(apiUrl)) {
    throw new TypeError(`${read.keyName('api_url')}: expected the http(s) URL of the Echo API`);
  }
  const headers = { authorization: `Bearer ${context.env.ECHO_TOKEN ?? ''}`, 'content-type': 'application/json' };
  // the seams, the status and in-flight trackers, and the runner behind start() and stop()
  const kit = createPlatformKit(context, deps, { platform: PLATFORM, capabilities: ECHO_CAPABILITIES, apiUrl });
  const { status, inFlight } = kit;

  const call = async (path: string, signal: AbortSignal): Promise<unknown> => {
    const response = await fetch(`${apiUrl}${path}`, { headers, signal });
    if (!response.ok) throw new Error(`GET ${path.split('?')[0]} answered HTTP ${response.status}`);
    return response.json();
  };

  const toEvent = (update: EchoUpdate) =>
    userMessage(
      {
        messageId: String(update.id),
        source: {
          platform: PLATFORM,
          chatId: update.chat.id,
          chatType: update.chat.type,
          userId: update.from.id,
          userName: update.from.name,
          mentioned: update.mentions_bot === true,
        },
        receivedAt: kit.now(),
        raw: update,
        text: update.text,
      },
      [],
    ).event;

  /** The one owner of the connection: checks the token, then long-polls, backing off while it fails. */
  async function poll(sink: InboundSink, signal: AbortSignal): Promise<void> {
    let failures = 0;
    let ready = false;
    while (!signal.aborted) {
      try {
        if (!ready) await call('/me', signal);
        ready = true;
        status.set('connected');
        const offset = context.state.get('offset') ?? '0';
        const { updates } = (await call(`/updates?offset=${offset}`, signal)) as { updates: EchoUpdate[] };
        failures = 0;
        // each event is accepted (stored) with the next offset in one transaction: none skipped, none repeated
        for (const update of updates) {
          await inFlight.track(sink.accept(toEvent(update), { state: { offset: String(update.id + 1) } }));
        }
      } catch (error) {
        if (signal.aborted) return;
        failures += 1;
        ready = false;
        status.set('error', errorText(error));
        await kit.sleep(backoffDelayMs(failures, kit.random), signal);
      }
    }
  }

  async function send(message: OutboundMessage): Promise<SendResult> {
    try {
      const body = JSON.stringify({ chat: message.chatId, text: message.text });
      const response = await fetch(`${apiUrl}/messages`, { method: 'POST', headers, body });
      const answer = (await response.json().catch(() => ({}))) as { id?: number; retry_after_ms?: number };
      if (response.ok) return { ok: true, messageIds: [String(answer.id)] };
      const failure = `POST /messages answered HTTP ${response.status}`;
      if (response.status === 429) {
        return { ok: false, error: 'rate_limited', message: failure, retryAfterMs: answer.retry_after_ms ?? 1_000 };
      }
      if (response.status === 403) return { ok: false, error: 'forbidden', message: failure };
      if (response.status === 404) return { ok: false, error: 'not_found', message: failure };
      return { ok: false, error: 'transient', message: failure, status: response.status };
    } catch (error) {
      return { ok: false, error: 'transient', message: errorText(error) };
    }
  }

  // start() resolves once connected (or failed); stop() aborts the loop and awaits it and every send
  return kit.adapter({
    intake: poll,
    send: (message) => inFlight.track(send(message)),
    format: formatPlain,
  });
}

/** Echo is available when ECHO_TOKEN is set. */
export const echoFactory: PlatformFactory = {
  name: PLATFORM,
  ...envCredential('ECHO_TOKEN'),
  create: (context) => createEchoAdapter(context),
};

export default definePlugin((ctx) => {
  ctx.registerPlatform({ name: PLATFORM, capabilities: ECHO_CAPABILITIES, factory: echoFactory });
});
