// Matrix /sync answers (the fake homeserver's, test/fakes/matrix-server.ts): hostile texts from
// allowed users, hand-written malformed timeline events (wrong types, missing ids, unknown event
// types, edits, reactions, redacted, encrypted, media with bad URIs, junk relations and mentions),
// whole sync bodies that are not one (not JSON, no next_batch, junk rooms, invites and leaves), and
// seeded mutations of real events shaped as the fake sends them. Events ride in a sync answer whose
// next_batch is the request's own token ("$SINCE"), so a malformed answer never moves the token.
import { randomBytes } from 'node:crypto';
import type { MatrixPerson } from '../../fakes/matrix-server.js';
import { deepMarker, jsonText, mutate, rootReplacements } from '../lib/mutate.js';
import { megabyteText, NASTY_STRINGS } from '../lib/nasty.js';
import { EXTRA_USERS } from '../lib/platforms.js';
import type { Rng } from '../lib/prng.js';

export const MX_SERVER = 'hermes.test';
const person = (local: string, displayName: string): MatrixPerson => ({
  userId: `@${local}:${MX_SERVER}`,
  displayName,
});
export const MX_ALLOWED = person('ada', 'Ada');
export const MX_STRANGER = person('mallory', 'Mallory');
export const mxExtraUser = (i: number): MatrixPerson => person(`extra${i % EXTRA_USERS}`, `extra${i % EXTRA_USERS}`);
export const MX_ALLOWED_USERS = [
  MX_ALLOWED.userId,
  ...Array.from({ length: EXTRA_USERS }, (_, i) => mxExtraUser(i).userId),
];

/** Where an input's events are: a user's direct room, the group room, or a room id as given. */
export type MxRoom = { dm: MatrixPerson } | 'group' | { id: string };

/** One input: events in a room's timeline (a sync answer that keeps the token), or a whole sync body as text. */
export type MatrixInput = { kind: 'events'; room: MxRoom; events: unknown[] } | { kind: 'sync'; text: string };

export interface MatrixCase {
  label: string;
  input: MatrixInput;
  /** the inbox key (the event id) of a message that must be answered */
  answerKey?: string;
}

let clock = 1_750_000_000_000;

/** An `m.room.message` text event from `from`, as the fake builds them, with its id (the inbox key). */
export function mxText(
  from: MatrixPerson,
  body: string,
  content: Record<string, unknown> = {},
): { event: Record<string, unknown>; key: string } {
  clock += 1;
  const key = `$${randomBytes(32).toString('base64url').slice(0, 43)}`;
  return {
    key,
    event: {
      type: 'm.room.message',
      event_id: key,
      sender: from.userId,
      origin_server_ts: clock,
      content: { msgtype: 'm.text', body, ...content },
      unsigned: { age: 5 },
    },
  };
}

/** The JSON text of a sync answer carrying `events` in `roomId`'s timeline, keeping the token. */
export function syncWith(roomId: string, events: unknown[], extra: Record<string, unknown> = {}): string {
  return jsonText({
    next_batch: '$SINCE',
    rooms: { join: { [roomId]: { timeline: { events, limited: false }, ...extra } } },
  });
}

/** Allowed users' texts that are hostile but valid (each from its own user): each must be answered; 1 MB is refused. */
export function hostileMatrixTexts(): MatrixCase[] {
  return [...NASTY_STRINGS, megabyteText(51)].map((text, i) => {
    const from = mxExtraUser(i);
    const { event, key } = mxText(from, text);
    const answerable = text.trim() !== '' && text.length <= 65_536;
    return {
      label: `text #${i} (${text.length} chars)`,
      input: { kind: 'events', room: { dm: from }, events: [event] },
      ...(answerable ? { answerKey: key } : {}),
    };
  });
}

type Json = Record<string, unknown>;

/** Hand-written malformed events and sync bodies. */
export function handWrittenMatrix(bot: MatrixPerson): MatrixCase[] {
  const cases: MatrixCase[] = [];
  const dm = { dm: MX_ALLOWED };
  const events = (label: string, list: unknown[], room: MxRoom = dm) =>
    cases.push({ label, input: { kind: 'events', room, events: list } });
  const one = (label: string, edit: (event: Json, content: Json) => void, room: MxRoom = dm) => {
    const { event } = mxText(MX_ALLOWED, 'x');
    edit(event, event.content as Json);
    events(label, [event], room);
  };
  const sync = (label: string, text: string) => cases.push({ label: `sync: ${label}`, input: { kind: 'sync', text } });
  // timeline entries that are not events
  events('null, a string, a number, an array', [null, 'x', 5, []]);
  one('no event_id', (e) => delete e.event_id);
  one('event_id a number', (e) => (e.event_id = 5));
  one('no sender', (e) => delete e.sender);
  one('sender a number', (e) => (e.sender = 42));
  one('no type', (e) => delete e.type);
  one('type an object', (e) => (e.type = { t: 1 }));
  one('from the bot itself', (e) => (e.sender = bot.userId));
  // other event types
  one('an unknown event type', (e) => (e.type = 'org.example.future.poll'));
  one('a reaction', (e, c) => {
    e.type = 'm.reaction';
    c['m.relates_to'] = { rel_type: 'm.annotation', event_id: '$x', key: '👍' };
  });
  one('a redaction', (e) => {
    e.type = 'm.room.redaction';
    e.redacts = '$x';
  });
  one('a sticker', (e) => (e.type = 'm.sticker'));
  one('a state event', (e) => {
    e.type = 'm.room.member';
    e.state_key = MX_ALLOWED.userId;
  });
  one('a call invite', (e) => (e.type = 'm.call.invite'));
  one('an encrypted message', (e, c) => {
    e.type = 'm.room.encrypted';
    Object.assign(c, { algorithm: 'm.megolm.v1.aes-sha2', ciphertext: 'AwgAEn', session_id: 'x', sender_key: 'y' });
  });
  // message contents the adapter cannot use
  one('redacted (empty content)', (e) => (e.content = {}));
  one('content null', (e) => (e.content = null));
  one('content a string', (e) => (e.content = 'hello'));
  one('content an array', (e) => (e.content = ['hello']));
  one('body missing', (_e, c) => delete c.body);
  one('body a number', (_e, c) => (c.body = 42));
  one('body an object', (_e, c) => (c.body = { text: 'x' }));
  one('msgtype a number', (_e, c) => (c.msgtype = 7));
  one('a notice', (_e, c) => (c.msgtype = 'm.notice'));
  one('an edit', (_e, c) => (c['m.relates_to'] = { rel_type: 'm.replace', event_id: '$x' }));
  one('m.relates_to a string', (_e, c) => (c['m.relates_to'] = 'x'));
  one('m.relates_to junk', (_e, c) => (c['m.relates_to'] = { rel_type: 5, event_id: [], 'm.in_reply_to': 'x' }));
  one('a thread root that is a number', (_e, c) => (c['m.relates_to'] = { rel_type: 'm.thread', event_id: 5 }));
  one('m.mentions junk', (_e, c) => (c['m.mentions'] = { user_ids: 'everyone', room: 'yes' }));
  one('formatted_body a number', (_e, c) => Object.assign(c, { format: 'org.matrix.custom.html', formatted_body: 7 }));
  one('formatted_body 1 MB', (_e, c) =>
    Object.assign(c, { format: 'org.matrix.custom.html', formatted_body: megabyteText(52) }),
  );
  one('a reply fallback only', (_e, c) => {
    c.body = '> <@someone:x> quoted\n\n';
    c['m.relates_to'] = { 'm.in_reply_to': { event_id: '$nowhere' } };
  });
  // media with bad parts
  const media = (label: string, extra: Json) =>
    one(label, (_e, c) => Object.assign(c, { msgtype: 'm.image', body: 'i.png', ...extra }));
  media('an image without a url', {});
  media('an image url a number', { url: 5 });
  media('an image url over https', { url: 'https://evil.example/x.png' });
  media('an image url with a path', { url: `mxc://${MX_SERVER}/../../etc/passwd` });
  media('an image not in the repository', {
    url: `mxc://${MX_SERVER}/doesNotExist`,
    info: { mimetype: 'image/png', size: 5 },
  });
  media('an image with junk info', { url: `mxc://${MX_SERVER}/junk`, info: { mimetype: 5, size: -1 } });
  media('an encrypted image', { file: { url: `mxc://${MX_SERVER}/enc`, key: {}, iv: 'x', hashes: {} } });
  one('a location without geo_uri', (_e, c) => Object.assign(c, { msgtype: 'm.location', body: 'here' }));
  one('an unknown field nested 50000 deep', (_e, c) => (c.x_future = deepMarker(50_000, 'object')));
  // rooms the bot does not know, and odd room sections
  cases.push({
    label: 'a message in a room the server does not know',
    input: { kind: 'events', room: { id: `!unknown:${MX_SERVER}` }, events: [mxText(MX_ALLOWED, 'who am I').event] },
  });
  cases.push({
    label: 'a room id that is not one',
    input: { kind: 'events', room: { id: 'not-a-room' }, events: [mxText(MX_ALLOWED, 'x').event] },
  });
  // whole sync bodies
  sync('not JSON', 'this is not json');
  sync('empty', '');
  sync('truncated JSON', '{"next_batch": "s1", "rooms": {"join": ');
  sync('no next_batch', '{"rooms": {}}');
  sync('next_batch a number', '{"next_batch": 5}');
  sync('next_batch empty', '{"next_batch": ""}');
  sync('next_batch 2000 characters', JSON.stringify({ next_batch: 'x'.repeat(2000) }));
  sync('1 MB, not JSON', megabyteText(53));
  sync('a lone surrogate escape', '{"next_batch": "\\ud800"}');
  for (const root of rootReplacements()) sync(root.label, jsonText(root.value));
  const junk = (label: string, rooms: unknown) => sync(label, jsonText({ next_batch: '$SINCE', rooms }));
  junk('rooms a string', 'x');
  junk('rooms.join an array', { join: [] });
  junk('a joined room null', { join: { [`!x:${MX_SERVER}`]: null } });
  junk('timeline events an object', { join: { [`!x:${MX_SERVER}`]: { timeline: { events: { a: 1 } } } } });
  junk('timeline a string', { join: { [`!x:${MX_SERVER}`]: { timeline: 'x', summary: 'y', state: 5 } } });
  junk('a limited timeline', { join: { [`!x:${MX_SERVER}`]: { timeline: { events: [], limited: true } } } });
  junk('summary count negative, a string', {
    join: { [`!x:${MX_SERVER}`]: { summary: { 'm.joined_member_count': -1 } } },
  });
  junk('an invite with invite_state null', { invite: { [`!inv:${MX_SERVER}`]: { invite_state: null } } });
  junk('an invite to a room id that is not one', { invite: { x: { invite_state: { events: 'x' } } } });
  junk('leave junk', { leave: { x: 5, [`!y:${MX_SERVER}`]: null } });
  junk('10000 rooms, each empty', {
    join: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`!r${i}:${MX_SERVER}`, {}])),
  });
  cases.push({
    label: 'a DM from a stranger',
    input: { kind: 'events', room: { dm: MX_STRANGER }, events: [mxText(MX_STRANGER, 'hello, let me in').event] },
  });
  return cases;
}

/** Seeded mutations of whole events: a DM text, a room message with a pill mention, an image. */
export function generatedMatrix(rng: Rng, bot: MatrixPerson, count: number): MatrixCase[] {
  const out: MatrixCase[] = [];
  for (let i = 0; i < count; i++) {
    const words = `hello ${rng.string(6)}`;
    const templates: (() => { room: MxRoom; event: unknown })[] = [
      () => ({ room: { dm: MX_ALLOWED }, event: mxText(MX_ALLOWED, words).event }),
      () => ({
        room: 'group',
        event: mxText(MX_ALLOWED, `${bot.displayName}: ${words}`, {
          format: 'org.matrix.custom.html',
          formatted_body: `<a href="https://matrix.to/#/${bot.userId}">${bot.displayName}</a>: ${words}`,
          'm.mentions': { user_ids: [bot.userId] },
        }).event,
      }),
      () => ({
        room: { dm: MX_ALLOWED },
        event: mxText(MX_ALLOWED, 'a.jpg', {
          msgtype: 'm.image',
          url: `mxc://${MX_SERVER}/notStored`,
          info: { mimetype: 'image/jpeg', size: 5 },
        }).event,
      }),
    ];
    const { room, event } = rng.pick(templates)();
    // most mutations go inside the content, where the adapter reads most
    const m = mutate(event, rng, rng.chance(0.6) ? { keep: (p) => p[0] !== 'content' } : {});
    out.push({ label: `generated #${i}: ${m.label}`, input: { kind: 'events', room, events: [m.value] } });
  }
  return out;
}
