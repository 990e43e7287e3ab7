// Discord gateway dispatches: mutations of real MESSAGE_CREATE payloads captured from the fake,
// other dispatch types with junk data, and raw frames that are not valid gateway payloads.
import { deepMarker, jsonText, materialize, maxDepthOf, mutate, rootReplacements } from '../lib/mutate.js';
import { megabyteText, NASTY_STRINGS } from '../lib/nasty.js';
import { extraUser } from '../lib/platforms.js';
import type { Rng } from '../lib/prng.js';

/** How an input reaches discord.js: a dispatch through the fake's session, or a raw text frame. */
export type DiscordInput =
  | { kind: 'dispatch'; t: string; d: unknown }
  /** sent as is (deep payloads go raw: the fake would JSON.stringify them recursively) */
  | { kind: 'raw'; frame: string };

export interface DiscordCase {
  label: string;
  input: DiscordInput;
  /** the message id of an allowed user's DM that must be answered */
  answerKey?: string;
}

/** Fresh snowflakes, far from the fake's own. */
export class Snowflakes {
  #next = 990_000_000_000_000_000n;
  take(): string {
    this.#next += 1n;
    return String(this.#next);
  }
}

const STRINGIFY_SAFE_DEPTH = 2_000;

/** A dispatch, or a raw frame when the payload is nested too deep for the fake to serialise. */
export function dispatchInput(t: string, d: unknown): DiscordInput {
  if (maxDepthOf(d) > STRINGIFY_SAFE_DEPTH) {
    return { kind: 'raw', frame: `{"op":0,"t":${JSON.stringify(t)},"s":null,"d":${jsonText(d)}}` };
  }
  return { kind: 'dispatch', t, d: materialize(d) };
}

function withFreshIds(template: Record<string, unknown>, ids: Snowflakes): Record<string, unknown> {
  const copy = structuredClone(template);
  copy.id = ids.take();
  copy.nonce = ids.take();
  return copy;
}

/** Seeded mutations of captured MESSAGE_CREATE payloads (DM, guild mention, thread). */
export function generatedDiscord(
  rng: Rng,
  ids: Snowflakes,
  templates: readonly Record<string, unknown>[],
  count: number,
): DiscordCase[] {
  const out: DiscordCase[] = [];
  for (let i = 0; i < count; i++) {
    const base = withFreshIds(rng.pick(templates), ids);
    const m = mutate(base, rng, { keep: (p) => p.length === 1 && p[0] === 'id' });
    out.push({ label: `generated #${i}: ${m.label}`, input: dispatchInput('MESSAGE_CREATE', m.value) });
  }
  return out;
}

/** Allowed users' DMs with hostile but valid content (each from its own user): each must be answered. */
export function hostileDiscordTexts(
  ids: Snowflakes,
  dmTemplate: Record<string, unknown>,
  dmChannelOf: (user: { id: string; name: string }) => string,
): DiscordCase[] {
  return [...NASTY_STRINGS, megabyteText(11)].map((content, i) => {
    const from = extraUser.discord(i);
    const author = {
      ...(dmTemplate.author as Record<string, unknown>),
      id: from.id,
      username: from.name,
      global_name: from.name,
    };
    const d: Record<string, unknown> = {
      ...withFreshIds(dmTemplate, ids),
      content,
      author,
      channel_id: dmChannelOf(from),
    };
    const id = String(d.id);
    return {
      label: `content #${i} (${content.length} chars)`,
      input: { kind: 'dispatch', t: 'MESSAGE_CREATE', d },
      ...(content.trim() === '' ? {} : { answerKey: id }),
    };
  });
}

/** Other dispatch types with junk, and raw frames. */
export function handWrittenDiscord(ids: Snowflakes, dmTemplate: Record<string, unknown>): DiscordCase[] {
  const cases: DiscordCase[] = [];
  const junk: unknown[] = [null, [], {}, 'x', 42, { id: 'not-a-snowflake' }, { id: ids.take(), type: 'x' }];
  for (const t of [
    'MESSAGE_CREATE',
    'INTERACTION_CREATE',
    'MESSAGE_UPDATE',
    'MESSAGE_DELETE',
    'CHANNEL_CREATE',
    'THREAD_CREATE',
    'TYPING_START',
    'PRESENCE_UPDATE',
    'X_UNKNOWN_EVENT',
  ]) {
    for (const [i, d] of junk.entries()) cases.push({ label: `${t} junk #${i}`, input: { kind: 'dispatch', t, d } });
  }
  for (const root of rootReplacements()) {
    cases.push({ label: `MESSAGE_CREATE ${root.label}`, input: dispatchInput('MESSAGE_CREATE', root.value) });
  }
  const base = () => withFreshIds(dmTemplate, ids);
  const variants: [string, (d: Record<string, unknown>) => void][] = [
    ['author is a bot', (d) => Object.assign(d, { author: { ...(d.author as object), bot: true } })],
    ['author without id', (d) => Object.assign(d, { author: { username: 'x' } })],
    ['type 7 (member join)', (d) => Object.assign(d, { type: 7 })],
    ['type is a string', (d) => Object.assign(d, { type: '0' })],
    ['webhook_id set', (d) => Object.assign(d, { webhook_id: ids.take() })],
    ['channel_id unknown', (d) => Object.assign(d, { channel_id: ids.take() })],
    ['guild_id unknown', (d) => Object.assign(d, { guild_id: ids.take(), channel_type: 0 })],
    ['channel_type 99', (d) => Object.assign(d, { channel_type: 99 })],
    ['mentions with junk', (d) => Object.assign(d, { mentions: [null, 1, { id: 'x' }] })],
    ['mention_roles not snowflakes', (d) => Object.assign(d, { mention_roles: ['<@&x>', 5] })],
    [
      'attachments with a bad url',
      (d) =>
        Object.assign(d, {
          attachments: [{ id: ids.take(), filename: '../../x', url: 'http://127.0.0.1:1/nope', size: -1 }],
        }),
    ],
    ['attachments is a string', (d) => Object.assign(d, { attachments: 'x' })],
    [
      'referenced_message nested 3000 deep',
      (d) => Object.assign(d, { referenced_message: deepMarker(3_000, 'object') }),
    ],
    ['an unknown field nested 50000 deep', (d) => Object.assign(d, { x_future: deepMarker(50_000, 'array') })],
    ['content is null', (d) => Object.assign(d, { content: null })],
    ['content is an array', (d) => Object.assign(d, { content: ['a'] })],
  ];
  for (const [label, change] of variants) {
    const d = base();
    change(d);
    cases.push({ label, input: dispatchInput('MESSAGE_CREATE', d) });
  }
  const frames: [string, string][] = [
    ['not JSON', 'this is not json'],
    ['empty frame', ''],
    ['JSON null', 'null'],
    ['JSON array', '[1,2,3]'],
    ['op missing', '{"t":"MESSAGE_CREATE","d":{}}'],
    ['unknown op', '{"op":99,"d":{}}'],
    ['op is a string', '{"op":"0","t":"MESSAGE_CREATE","s":null,"d":{}}'],
    ['dispatch without t', '{"op":0,"s":null,"d":{}}'],
    ['dispatch without d', '{"op":0,"t":"MESSAGE_CREATE","s":null}'],
    ['truncated JSON', '{"op":0,"t":"MESSAGE_CREATE","s":null,"d":{"id":"1'],
    ['1 MB of junk', `{"op":0,"t":"X_JUNK","s":null,"d":${JSON.stringify(megabyteText(12))}}`],
    ['lone surrogates', '{"op":0,"t":"MESSAGE_CREATE","s":null,"d":{"content":"\\ud800\\udfff\\ud800"}}'],
    ['NUL bytes', `{"op":0,"t":"MESSAGE_CREATE","s":null,"d":{"content":"a\\u0000b"}}`],
  ];
  for (const [label, frame] of frames) cases.push({ label: `raw frame: ${label}`, input: { kind: 'raw', frame } });
  return cases;
}
