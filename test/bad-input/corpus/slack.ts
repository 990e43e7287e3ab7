// Slack Events API bodies (HTTP) and Socket Mode envelopes: mutations of real message events built
// by the fake, hand-written malformed events, and raw socket frames.
import { randomUUID } from 'node:crypto';
import type { FakeSlack } from '../../fakes/slack-server.js';
import { deepMarker, jsonText, mutate, rootReplacements } from '../lib/mutate.js';
import { megabyteText, NASTY_STRINGS } from '../lib/nasty.js';
import { ALLOWED, extraUser } from '../lib/platforms.js';
import type { Rng } from '../lib/prng.js';

export const SLACK_CHANNEL = 'C0BADINPUT';
export const SLACK_STRANGER = 'U0STRANGER';

export interface SlackCase {
  label: string;
  /** the event_callback body (deep values as markers) */
  body: unknown;
  /** the inbox key (`channel:ts`) of a message that must be answered */
  answerKey?: string;
}

function templates(slack: FakeSlack, rng: Rng): Record<string, unknown>[] {
  const text = `hello ${rng.string(6)}`;
  const dm = slack.messageEvent({ channel: ALLOWED.slack.dm, user: ALLOWED.slack.id, text, channelType: 'im' });
  const mention = slack.appMentionEvent(
    slack.messageEvent({ channel: SLACK_CHANNEL, user: ALLOWED.slack.id, text: `<@${slack.bot.userId}> ${text}` }),
  );
  const parent = slack.nextTs();
  const thread = slack.messageEvent({
    channel: SLACK_CHANNEL,
    user: ALLOWED.slack.id,
    text: `<@${slack.bot.userId}> ${text}`,
    threadTs: parent,
  });
  const file = slack.messageEvent({
    channel: ALLOWED.slack.dm,
    user: ALLOWED.slack.id,
    text,
    channelType: 'im',
    subtype: 'file_share',
    files: [
      {
        id: `F${rng.string(8, 'ABCDEFGHJK0123456789')}`,
        name: '../../etc/passwd',
        title: 'x',
        mimetype: 'text/plain',
        filetype: 'text',
        size: 5,
        url_private: 'http://127.0.0.1:1/nope',
        url_private_download: 'http://127.0.0.1:1/nope/download',
      },
    ],
  });
  return [dm, mention, thread, file].map((event) => slack.eventCallback(event) as unknown as Record<string, unknown>);
}

/** Seeded mutations of whole event_callback bodies (the outer body and the event). */
export function generatedSlack(rng: Rng, slack: FakeSlack, count: number): SlackCase[] {
  const out: SlackCase[] = [];
  for (let i = 0; i < count; i++) {
    const base = rng.pick(templates(slack, rng));
    // most mutations go inside the event, where the adapter reads
    const m = mutate(base, rng, rng.chance(0.8) ? { keep: (p) => p[0] !== 'event' } : {});
    out.push({ label: `generated #${i}: ${m.label}`, body: m.value });
  }
  return out;
}

/** Allowed users' DMs with hostile but valid text (each from its own user): each must be answered. */
export function hostileSlackTexts(slack: FakeSlack): SlackCase[] {
  return [...NASTY_STRINGS, megabyteText(21)].map((text, i) => {
    const from = extraUser.slack(i);
    slack.addUser({ id: from.id, name: `extra-${i}` });
    const event = slack.messageEvent({ channel: from.dm, user: from.id, text, channelType: 'im' });
    return {
      label: `text #${i} (${text.length} chars)`,
      body: slack.eventCallback(event),
      // Slack escapes &, < and >; mentions and blank text are not a message to answer
      ...(text.trim() === '' || /<[@!]/.test(text) ? {} : { answerKey: `${event.channel}:${event.ts}` }),
    };
  });
}

/** Hand-written malformed events. */
export function handWrittenSlack(slack: FakeSlack): SlackCase[] {
  const cases: SlackCase[] = [];
  const dm = () =>
    ({
      ...slack.messageEvent({ channel: ALLOWED.slack.dm, user: ALLOWED.slack.id, text: 'x', channelType: 'im' }),
    }) as Record<string, unknown>;
  const wrap = (event: unknown) => slack.eventCallback(event as object);
  const add = (label: string, body: unknown) => cases.push({ label, body });
  add('event missing', { ...wrap(dm()), event: undefined });
  add('event is a string', { ...wrap(dm()), event: 'message' });
  add('event is null', { ...wrap(dm()), event: null });
  add('type unknown', { ...wrap(dm()), type: 'x_unknown' });
  add('type missing', { ...wrap(dm()), type: undefined });
  add('url_verification without challenge', { type: 'url_verification' });
  add('url_verification with a 1 MB challenge', { type: 'url_verification', challenge: megabyteText(22) });
  add('app_rate_limited', { type: 'app_rate_limited', team_id: 'T', minute_rate_limited: 1 });
  add('reaction_added event', wrap({ type: 'reaction_added', user: ALLOWED.slack.id, reaction: 'x', item: {} }));
  add('message_changed subtype', wrap({ ...dm(), subtype: 'message_changed', message: { text: 'x' } }));
  add('message_deleted subtype', wrap({ ...dm(), subtype: 'message_deleted' }));
  add('bot_message', wrap({ ...dm(), subtype: 'bot_message', bot_id: 'B1' }));
  add('bot_id set', wrap({ ...dm(), bot_id: 'B1' }));
  add('from the bot user itself', wrap({ ...dm(), user: slack.bot.userId }));
  add('ts not a Slack ts', wrap({ ...dm(), ts: 'yesterday' }));
  add('ts is a number', wrap({ ...dm(), ts: 1_712_345_678.0001 }));
  add('thread_ts invalid', wrap({ ...dm(), thread_ts: '../..' }));
  add('channel empty', wrap({ ...dm(), channel: '' }));
  add('user is an object', wrap({ ...dm(), user: { id: ALLOWED.slack.id } }));
  add('text is a number', wrap({ ...dm(), text: 5 }));
  add('files is an object', wrap({ ...dm(), subtype: 'file_share', files: { id: 'F1' } }));
  add('files with junk entries', wrap({ ...dm(), subtype: 'file_share', files: [null, 1, {}, { id: '' }] }));
  add('blocks nested 3000 deep', wrap({ ...dm(), blocks: deepMarker(3_000, 'array') }));
  add('an unknown field nested 50000 deep', wrap({ ...dm(), x_future: deepMarker(50_000, 'object') }));
  add(
    '__proto__ in the event',
    JSON.parse(`{"type":"event_callback","event_id":"Ev${randomUUID()}",
    "event":{"__proto__":{"polluted":true},"type":"message","channel":"${ALLOWED.slack.dm}","user":"${ALLOWED.slack.id}",
    "text":"proto","ts":"${slack.nextTs()}","channel_type":"im"}}`),
  );
  add('DM from a stranger (pairing)', wrap({ ...dm(), user: SLACK_STRANGER, channel: 'D0STRANGER' }));
  add(
    'channel message from a stranger mentioning the bot',
    wrap({
      ...dm(),
      user: SLACK_STRANGER,
      channel: SLACK_CHANNEL,
      channel_type: 'channel',
      text: `<@${slack.bot.userId}> hi`,
    }),
  );
  for (const root of rootReplacements()) add(root.label, root.value);
  return cases;
}

/** A Socket Mode envelope around a body (envelope_id kept, so the ack can be checked). */
export function envelopeText(body: unknown, envelopeId: string): string {
  return `{"envelope_id":${JSON.stringify(envelopeId)},"type":"events_api","accepts_response_payload":false,"retry_attempt":0,"retry_reason":"","payload":${jsonText(body)}}`;
}

/** Frames that are not valid Socket Mode envelopes (no ack can be expected for them). */
export function rawSlackFrames(): [string, string][] {
  return [
    ['not JSON', 'not json at all'],
    ['empty frame', ''],
    ['JSON null', 'null'],
    ['JSON array', '[]'],
    ['envelope without type', `{"envelope_id":"${randomUUID()}","payload":{}}`],
    ['unknown envelope type', `{"envelope_id":"${randomUUID()}","type":"x_unknown","payload":{}}`],
    ['events_api without payload', `{"envelope_id":"${randomUUID()}","type":"events_api"}`],
    ['events_api with a string payload', `{"envelope_id":"${randomUUID()}","type":"events_api","payload":"x"}`],
    ['envelope_id is a number', '{"envelope_id":5,"type":"events_api","payload":{}}'],
    ['slash_commands junk', `{"envelope_id":"${randomUUID()}","type":"slash_commands","payload":{"command":5}}`],
    ['interactive junk', `{"envelope_id":"${randomUUID()}","type":"interactive","payload":null}`],
    ['hello again', '{"type":"hello","num_connections":"x"}'],
    ['truncated JSON', '{"envelope_id":"x","type":"events_api","payload":{"event":'],
    ['1 MB frame', `{"type":"x_junk","data":${JSON.stringify(megabyteText(23))}}`],
    ['lone surrogates', '{"type":"x_junk","data":"\\ud800\\udbff"}'],
  ];
}
