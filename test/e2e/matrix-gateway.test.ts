// Matrix through `hermes gateway run`: the bundled plugin loaded on MATRIX_HOMESERVER_URL +
// MATRIX_ACCESS_TOKEN, events read off the fake homeserver's /sync long poll
// (test/fakes/matrix-server.ts), answers, typing and reactions through its Client-Server API, the
// fake model behind. One gateway for most of the file; the last test restarts it on the same home.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { E2EE_NOTICE } from '../../plugins/platforms/matrix/index.js';
import { type FakeMatrix, matrixPerson, startFakeMatrix } from '../fakes/matrix-server.js';
import { imagePartsOf } from '../fakes/openai-server.js';
import { tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor, waitForValue } from '../helpers/wait-for.js';

const ALICE = matrixPerson(1, 'Alice');
const BOB = matrixPerson(2, 'Bob');
const STRANGER = matrixPerson(3, 'Mallory');

const openai = useFakeOpenAI();
let matrix: FakeMatrix;
let gw: RunningGateway;
let home: string;
let env: Record<string, string>;
let aliceDm: string;
let group: string;

const chats = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const bodies = () => matrix.messages().map((m) => String(m.content.body));
const health = async () =>
  (await (await fetch(`${gw.url}/health`)).json()) as { platforms: Record<string, { state: string }> };

beforeAll(async () => {
  matrix = await startFakeMatrix();
  aliceDm = matrix.directRoom(ALICE);
  group = matrix.groupRoom([ALICE, BOB]);
  home = tempHome();
  writeFileSync(
    join(home, 'config.yaml'),
    'gateway:\n  batch_ms: 0\n  platforms:\n    matrix:\n      sync_timeout_ms: 5000\ndisplay:\n  reactions: true\n',
  );
  env = {
    HERMES_HOME: home,
    OPENAI_BASE_URL: openai.server.url,
    HERMES_INFERENCE_MODEL: 'test-model',
    MATRIX_HOMESERVER_URL: matrix.url,
    MATRIX_ACCESS_TOKEN: matrix.accessToken,
    MATRIX_USER_ID: matrix.bot.userId,
    MATRIX_ALLOWED_USERS: `${ALICE.userId},${BOB.userId}`,
  };
  gw = await spawnGateway(env);
});
afterAll(async () => {
  const code = await gw?.stop();
  await matrix?.close();
  expect(code).toBe(0);
});
beforeEach(() => matrix.reset());

describe('Matrix through hermes gateway run', () => {
  it('a DM is answered in HTML with its plain body, typing, and 👀 then ✅; health says connected', async () => {
    expect((await health()).platforms.matrix?.state).toBe('connected');
    openai.server.respond(async () => {
      await waitFor(() => matrix.typing.some((t) => t.typing), { what: 'the typing notice' });
      return { text: 'Hello from **Hermes**' };
    });
    const sent = matrix.message(aliceDm, ALICE, 'hi bot');
    await waitFor(() => bodies().length > 0, { what: 'the answer' });
    const [answer] = matrix.messages();
    expect(answer).toMatchObject({
      roomId: aliceDm,
      txnId: expect.stringMatching(/^hermes\.[0-9a-z]+\.[0-9a-z]+$/),
      content: {
        msgtype: 'm.text',
        body: 'Hello from Hermes',
        format: 'org.matrix.custom.html',
        formatted_body: 'Hello from <strong>Hermes</strong>',
      },
    });
    await waitFor(() => matrix.reactionsOn(String(sent.event_id)).includes('✅'), { what: 'the ✅ reaction' });
    expect(matrix.reactionsOn(String(sent.event_id))).toEqual(['✅']);
    expect(matrix.redactions).toHaveLength(1); // the 👀 taken back
    // the sync asked for no presence and long-polled with the token
    expect(matrix.syncs.at(-1)).toMatchObject({
      since: expect.stringMatching(/^s\d+$/),
      timeout: '5000',
      setPresence: 'offline',
    });
  });

  it('a redelivered event is answered once', async () => {
    openai.server.script({ text: 'only once' }, { text: 'the marker' });
    const first = matrix.message(aliceDm, ALICE, 'deliver me twice');
    await waitFor(() => bodies().length > 0, { what: 'the answer' });
    matrix.redeliver(aliceDm, first);
    matrix.message(aliceDm, ALICE, 'marker');
    await waitFor(() => bodies().includes('the marker'), { what: 'the marker answer' });
    expect(bodies()).toEqual(['only once', 'the marker']);
  });

  it('a 502 given after the server posted the answer: the retry carries the same transaction id, one message', async () => {
    matrix.failNextSends(1, 502, { posted: true });
    openai.server.script({ text: 'posted once' }, { text: 'the marker' });
    matrix.message(aliceDm, ALICE, 'lossy server');
    await waitFor(() => matrix.txnRepeats() > 0, { what: 'the retry answered from the transaction cache' });
    matrix.message(aliceDm, ALICE, 'marker');
    await waitFor(() => bodies().includes('the marker'), { what: 'the marker answer' });
    expect(bodies()).toEqual(['posted once', 'the marker']);
  });

  it('a stranger gets a pairing code and nothing else', async () => {
    const before = chats().length;
    const room = matrix.directRoom(STRANGER);
    matrix.message(room, STRANGER, 'let me in');
    await waitFor(() => bodies().length > 0, { what: 'the pairing reply' });
    expect(matrix.messages()).toHaveLength(1);
    expect(matrix.messages()[0]?.roomId).toBe(room);
    expect(bodies()[0]).toMatch(/pairing code is [A-Z0-9]{8}/);
    expect(chats()).toHaveLength(before);
  });

  it('in a room: answered when mentioned by a pill, silent otherwise; a thread is its own session', async () => {
    openai.server.script({ text: 'answer to the mention' }, { text: 'answer in the thread' });
    const before = chats().length;
    matrix.message(group, ALICE, 'just chatting');
    const mention = matrix.message(group, ALICE, 'what time is it?', { mention: 'pill' });
    await waitFor(() => bodies().length > 0, { what: 'the answer to the mention' });
    expect(matrix.messages()[0]?.roomId).toBe(group);
    const asked = JSON.stringify(chats().at(-1)?.body?.messages);
    expect(asked).toContain('what time is it?');
    expect(asked).not.toContain('matrix.to');
    // a reply in a thread on the mention: the answer goes in the thread, in a session of its own
    const root = String(mention.event_id);
    matrix.message(group, BOB, 'Hermes: and in a thread?', { mention: 'pill', threadRoot: root });
    await waitFor(() => bodies().length > 1, { what: 'the answer in the thread' });
    expect(matrix.messages()[1]?.content['m.relates_to']).toMatchObject({ rel_type: 'm.thread', event_id: root });
    const threadTurn = JSON.stringify(chats().at(-1)?.body?.messages);
    expect(threadTurn).toContain('and in a thread?');
    expect(threadTurn).not.toContain('what time is it?');
    expect(chats()).toHaveLength(before + 2);
  });

  it('a photo reaches the model with its bytes, downloaded through the authenticated media endpoint', async () => {
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('matrix jpeg '.repeat(100))]);
    openai.server.script({ text: 'a photo of text' });
    matrix.file(aliceDm, ALICE, 'what is this?', {
      data: photo,
      mimeType: 'image/jpeg',
      name: 'p.jpg',
      msgtype: 'm.image',
    });
    await waitFor(() => bodies().length > 0, { what: 'the photo answer' });
    expect(imagePartsOf(chats().at(-1))).toEqual([{ mimeType: 'image/jpeg', data: photo }]);
    expect(matrix.requests.filter((r) => r.path.startsWith('/_matrix/client/v1/media/download/'))).toHaveLength(1);
  });

  it('an encrypted room is told once that the bot cannot read it, and nothing reaches the model', async () => {
    const before = chats().length;
    const secret = matrix.groupRoom([ALICE, BOB], { encrypted: true });
    matrix.encrypted(secret, ALICE);
    matrix.encrypted(secret, BOB);
    await waitFor(() => bodies().length > 0, { what: 'the notice' });
    openai.server.script({ text: 'the marker' });
    matrix.message(aliceDm, ALICE, 'marker');
    await waitFor(() => bodies().includes('the marker'), { what: 'the marker answer' });
    expect(bodies()).toEqual([E2EE_NOTICE, 'the marker']);
    expect(chats()).toHaveLength(before + 1);
  });

  it('the sync refused: health error, then connected; a restart resumes from the stored token, nothing twice', async () => {
    matrix.refuseSyncs(502);
    matrix.dropSyncs();
    await waitForValue(health, (h) => h.platforms.matrix?.state === 'error', { what: 'matrix in error' });
    openai.server.script({ text: 'back again' });
    matrix.message(aliceDm, ALICE, 'are you there?');
    matrix.refuseSyncs(null);
    await waitFor(() => bodies().includes('back again'), { what: 'the answer after the refusals' });
    await waitForValue(health, (h) => h.platforms.matrix?.state === 'connected', { what: 'matrix connected again' });
    expect(await gw.stop()).toBe(0);
    matrix.message(aliceDm, ALICE, 'while you were away');
    openai.server.script({ text: 'caught up' });
    gw = await spawnGateway(env);
    await waitFor(() => bodies().includes('caught up'), { what: 'the answer after the restart' });
    openai.server.script({ text: 'the marker' });
    matrix.message(aliceDm, ALICE, 'marker');
    await waitFor(() => bodies().includes('the marker'), { what: 'the marker answer' });
    expect(bodies()).toEqual(['back again', 'caught up', 'the marker']);
  });
});
