// Slack in the chaos run (Bolt in the gateway). Socket Mode: envelopes over the fake's socket,
// redelivered here when unacknowledged for 3 s. HTTP mode (Events API): each event is POSTed,
// signed, to the gateway's events route and sent again up to 3 times (X-Slack-Retry-Num) when the
// answer is not a 200.

import {
  type EventCallbackBody,
  type EventsApiEnvelope,
  type FakeSlack,
  startFakeSlack,
} from '../fakes/slack-server.js';
import type { ChaosPlatform } from './platforms.js';
import { streamAndSpare, users } from './platforms.js';
import { PushDelivery, SLACK_HTTP_POLICY } from './push-delivery.js';
import { newestEdits } from './streamed-replies.js';

const SLACK_BOT_TOKEN = 'xoxb-7770047770-7770057770-ChaosBotToken';
const SLACK_APP_TOKEN = 'xapp-1-A0CHAOS0001-7770067770-ChaosAppToken';
const SLACK_SIGNING_SECRET = 'chaos-signing-secret-8f14e45fceea167a';
const SLACK_GROUP = 'C0CHAOS';
/** Slack redelivers an envelope the app did not acknowledge within 3 s, up to 3 times */
const SLACK_ACK_TIMEOUT_MS = 3_000;
const SLACK_MAX_RETRIES = 3;

interface TrackedEnvelope {
  /** the chaos message it carries */
  key: number;
  envelope: EventsApiEnvelope;
  /** every envelope id this event went out under (redeliveries get new ids) */
  ids: string[];
  /** when it left the fake's queue for a socket */
  sentAt: number | undefined;
  retries: number;
  done: boolean;
}

/**
 * Slack over Socket Mode. The fake sends a queued envelope once a live socket is there; what it
 * does not model, Slack's redelivery of an envelope nobody acknowledged, is done here by tick().
 */
export type SlackMode = 'socket' | 'http';
const EVENTS_PATH = '/slack/events';

export function slackPlatform(mode: SlackMode = 'socket'): ChaosPlatform {
  let fake: FakeSlack | null = null;
  let push: PushDelivery | null = null;
  /** HTTP mode: POSTs the event_callback bodies of message `key` (the same event_id on every retry) */
  const pushBodies = (key: number, bodies: EventCallbackBody[]): void => {
    if (!push) throw new Error('slack http: attach() first');
    const slack = need();
    for (const body of bodies) {
      push.push({
        key,
        path: EVENTS_PATH,
        request: (n) => {
          const signed = slack.signedRequest(body, n === 0 ? {} : { retryNum: n, retryReason: 'http_error' });
          return { headers: signed.headers, body: signed.rawBody };
        },
      });
    }
  };
  let cursor = 0;
  let uploadCursor = 0;
  let ackCursor = 0;
  const acked = new Map<string, number>();
  const tracked = new Map<number, TrackedEnvelope[]>();
  const redeliveries = new Map<number, number>();
  const ackedAt = new Map<number, number>();
  const need = (): FakeSlack => {
    if (!fake) throw new Error('slack: start() first');
    return fake;
  };
  const list = users((i) => `U0CHAOS${i}`);
  /** reads new acks: an acknowledged envelope is done, and its message's first ack time is kept */
  const settleAcks = (): void => {
    const acks = need().acks;
    for (const ack of acks.slice(ackCursor)) if (!acked.has(ack.envelopeId)) acked.set(ack.envelopeId, ack.at);
    ackCursor = acks.length;
    for (const [key, envelopes] of tracked) {
      for (const item of envelopes) {
        const at = item.ids.map((id) => acked.get(id)).find((t) => t !== undefined);
        if (at === undefined) continue;
        item.done = true;
        ackedAt.set(key, Math.min(at, ackedAt.get(key) ?? at));
      }
      if (envelopes.every((item) => item.done)) tracked.delete(key);
    }
  };
  return {
    name: 'slack',
    mode,
    ...streamAndSpare(list),
    async start() {
      fake = await startFakeSlack({
        botToken: SLACK_BOT_TOKEN,
        appToken: SLACK_APP_TOKEN,
        signingSecret: SLACK_SIGNING_SECRET,
        pingIntervalMs: 5_000,
      });
      for (const user of list) fake.addUser({ id: user.id, name: user.name });
    },
    async close() {
      push?.close();
      await fake?.close();
    },
    env: () => ({
      SLACK_BOT_TOKEN,
      ...(mode === 'socket' ? { SLACK_APP_TOKEN } : { SLACK_SIGNING_SECRET }),
      SLACK_ALLOWED_USERS: list.map((u) => u.id).join(','),
    }),
    settings: () =>
      mode === 'socket'
        ? { api_url: need().apiUrl, mode: 'socket', liveness_timeout_ms: 600 }
        : { api_url: need().apiUrl, mode: 'http', events_path: EVENTS_PATH },
    attach(gatewayUrl) {
      if (mode === 'http') push = new PushDelivery(SLACK_HTTP_POLICY, gatewayUrl);
    },
    pushOutcomes: (key) => push?.outcomes(key) ?? [],
    pushRetries: () => push?.retries() ?? 0,
    inFlight: () => push?.inFlight() ?? 0,
    pushPending: () => push?.pending() ?? 0,
    send(user, text, group, key, photo) {
      const slack = need();
      const channel = group ? SLACK_GROUP : `D${user.id.slice(1)}`;
      const input = {
        channel,
        user: user.id,
        text: group ? `<@${slack.bot.userId}> ${text}` : text,
        channelType: group ? ('channel' as const) : ('im' as const),
        // a DM with a photo, as Slack sends a file shared with a message
        ...(photo
          ? {
              subtype: 'file_share',
              files: [slack.addFile({ name: photo.fileName, mimetype: photo.mimeType, data: photo.data })],
            }
          : {}),
      };
      if (mode === 'http') {
        // as Slack: a mention outside a DM comes as the message event and an app_mention event
        const event = slack.messageEvent(input);
        const bodies = [slack.eventCallback(event)];
        if (group) bodies.push(slack.eventCallback(slack.appMentionEvent(event)));
        pushBodies(key, bodies);
        return { chatId: channel };
      }
      const { message, mention } = slack.pushMessage(input);
      const envelopes = mention === undefined ? [message] : [message, mention];
      tracked.set(
        key,
        envelopes.map((envelope) => ({
          key,
          envelope,
          ids: [envelope.envelope_id],
          sentAt: undefined,
          retries: 0,
          done: false,
        })),
      );
      return { chatId: channel };
    },
    takeReplies() {
      const posted = need().posted;
      const out = posted.slice(cursor).map((m) => ({ chatId: m.channel, text: m.text }));
      cursor = posted.length;
      return out;
    },
    takeUploads() {
      const shared = need().sharedFiles;
      const out = shared.slice(uploadCursor).map((f) => ({ chatId: f.channel, text: f.name }));
      uploadCursor = shared.length;
      return out;
    },
    replyCount: () => need().posted.length,
    shown: () => {
      const slack = need();
      const edited = newestEdits(
        slack.updates,
        (u) => `${u.channel}:${u.ts}`,
        (u) => u.text,
      );
      return slack.posted.map((m) => {
        const id = `${m.channel}:${m.ts}`;
        return { id, chatId: m.channel, text: edited.get(id) ?? m.text };
      });
    },
    rateLimitStorm(count) {
      need().failNext('chat.postMessage', { rateLimited: 1 }, count);
    },
    serverErrors(count, status) {
      need().failNext('chat.postMessage', { status }, count);
    },
    async dropConnection() {
      need().silence(); // Slack's failure mode: the socket stays open and goes deaf
    },
    failuresAnswered() {
      const posts = need().calls.filter((c) => c.method === 'chat.postMessage');
      return {
        rateLimited: posts.filter((c) => c.status === 429).length,
        serverErrors: posts.filter((c) => c.status >= 500).length,
      };
    },
    intakeAfter: (since) =>
      mode === 'socket'
        ? need().calls.find((c) => c.method === 'apps.connections.open' && c.at >= since)?.at
        : undefined,
    tick(now) {
      if (push) {
        push.tick(now);
        return;
      }
      const slack = need();
      settleAcks();
      const queued = new Set(slack.queued().map((e) => e.envelope_id));
      for (const envelopes of tracked.values()) {
        for (const item of envelopes) {
          if (item.done || queued.has(item.envelope.envelope_id)) continue;
          item.sentAt ??= now;
          if (now - item.sentAt < SLACK_ACK_TIMEOUT_MS) continue;
          if (item.retries >= SLACK_MAX_RETRIES) {
            item.done = true;
            continue;
          }
          item.envelope = slack.redeliver(item.envelope);
          item.ids.push(item.envelope.envelope_id);
          item.sentAt = undefined;
          item.retries += 1;
          redeliveries.set(item.key, (redeliveries.get(item.key) ?? 0) + 1);
        }
      }
    },
    slackDelivery(key) {
      if (push) {
        // HTTP: acknowledged = answered 200 (the gateway answers 200 once stored, or at its 2.5 s deadline)
        const outcomes = push.outcomes(key);
        const oks = outcomes.map((o) => o.okAt).filter((t): t is number => t !== undefined);
        return {
          ackedAt: oks.length > 0 ? Math.min(...oks) : undefined,
          redeliveries: outcomes.reduce((n, o) => n + Math.max(0, o.attempts - 1), 0),
          gaveUp: outcomes.some((o) => o.gaveUp && o.okAt === undefined),
        };
      }
      settleAcks();
      return { ackedAt: ackedAt.get(key), redeliveries: redeliveries.get(key) ?? 0 };
    },
  };
}
