/**
 * The web chat's adapter: no connection of its own; its routes take the browser's messages into
 * the pipeline, and what the gateway sends or edits goes out over the chat's SSE streams.
 */
import { randomBytes } from 'node:crypto';
import { type AdapterDeps, createPlatformKit } from '@hermes/plugin-sdk';
import type {
  EditMessage,
  InboundSink,
  OutboundMessage,
  PlatformAdapter,
  PlatformCapabilities,
  PlatformContext,
  SendResult,
} from '@hermes/protocol';
import { ChatStreams } from './chat-streams.js';
import { createChatIdentities } from './identity.js';
import { MAX_TEXT_LENGTH } from './message-body.js';
import { type ChatRoutesDeps, messagesRoute, PLATFORM, sessionRoute, streamRoute } from './routes.js';

export const WEB_CAPABILITIES: PlatformCapabilities = {
  maxMessageLength: MAX_TEXT_LENGTH,
  formatting: 'markdown',
  editing: true,
  typing: false,
  threads: false,
};

/** Room for the multipart framing and the text around the largest file media.max_bytes allows. */
const FORM_OVERHEAD_BYTES = 256 * 1024;
const DEFAULT_BODY_LIMIT = 4 * 1024 * 1024;

export interface WebAdapterDeps extends AdapterDeps {
  streams?: ChatStreams;
}

export function createWebAdapter(context: PlatformContext, deps: WebAdapterDeps = {}): PlatformAdapter {
  const kit = createPlatformKit(context, deps, {
    platform: PLATFORM,
    capabilities: WEB_CAPABILITIES,
    apiUrl: 'http://127.0.0.1', // no remote API: never paced
  });
  const streams = deps.streams ?? new ChatStreams();
  let sink: InboundSink | null = null;
  const routeDeps: ChatRoutesDeps = {
    identities: createChatIdentities(context),
    streams,
    sink: () => sink,
    limits: { cacheDir: context.cacheDir, maxFileBytes: context.mediaMaxBytes, downloads: context.downloads },
    logger: context.logger,
    now: kit.now,
  };
  const bodyLimit =
    context.mediaMaxBytes === undefined ? DEFAULT_BODY_LIMIT : context.mediaMaxBytes + FORM_OVERHEAD_BYTES;
  const browser = { browser: true } as const;
  context.route('GET', '/chat/api/session', sessionRoute(routeDeps), browser);
  context.route('GET', '/chat/api/stream', streamRoute(routeDeps), browser);
  context.route('POST', '/chat/api/messages', messagesRoute(routeDeps), { ...browser, multipart: true, bodyLimit });

  const newId = () => `w${randomBytes(9).toString('base64url')}`;
  async function send(message: OutboundMessage): Promise<SendResult> {
    const id = newId();
    streams.publish(message.chatId, 'message', { id, text: message.text });
    return { ok: true, messageIds: [id] };
  }
  async function edit(message: EditMessage): Promise<SendResult> {
    streams.publish(message.chatId, 'edit', { id: message.messageId, text: message.text });
    return { ok: true, messageIds: [message.messageId] };
  }

  return kit.adapter({
    async intake(next, signal) {
      streams.reopen();
      sink = next;
      kit.status.set('connected');
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    },
    closing: async () => {
      sink = null;
      streams.close();
    },
    send: (message) => kit.inFlight.track(send(message)),
    edit: (message) => kit.inFlight.track(edit(message)),
    format: (markdown) => markdown,
  });
}
