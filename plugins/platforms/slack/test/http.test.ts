// HTTP Events API intake: the route on the gateway's server, signature and timestamp checks,
// url_verification, retries, the sink's outcome as the HTTP answer.
import type { RouteRequest } from '@hermes/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOT_USER, eventually, type Harness, recordingSink, startHarness } from './harness.js';

const HTTP = { mode: 'http' };

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(() => h.close());

function dmBody(text: string) {
  return h.fake.eventCallback(h.fake.messageEvent({ channel: 'D100', user: 'U1', text }));
}

describe('slack http events', () => {
  it('adds its route at creation and never opens a socket', async () => {
    const adapter = h.adapter({ settings: HTTP });
    expect([...h.routes.keys()]).toEqual(['POST /slack/events']);
    expect((await h.route()(h.signed(dmBody('early')))).status).toBe(503);
    await adapter.start(recordingSink().sink);
    expect(adapter.status().state).toBe('connected');
    expect(h.fake.calls.map((call) => call.method)).toEqual(['auth.test']);
    expect(h.fake.connectionCount()).toBe(0);
  });

  it('answers url_verification with the challenge', async () => {
    h.adapter({ settings: HTTP });
    const response = await h.route()(h.signed({ token: 't', challenge: 'c-123', type: 'url_verification' }));
    expect(response).toEqual({ status: 200, body: { challenge: 'c-123' } });
  });

  it('delivers a signed event, answering 200 only once the sink accepted it', async () => {
    const recorder = recordingSink();
    const adapter = h.adapter({ settings: HTTP });
    await adapter.start(recorder.sink);
    const release = recorder.hold();
    let answered = false;
    const pending = h
      .route()(h.signed(dmBody('via http')))
      .then((response) => {
        answered = true;
        return response;
      });
    await eventually(() => recorder.attempts.length === 1);
    expect(answered).toBe(false);
    release();
    expect((await pending).status).toBe(200);
    expect(recorder.events.map((event) => event.text)).toEqual(['via http']);
    expect(recorder.events[0]?.source).toMatchObject({ chatId: 'D100', chatType: 'dm', userId: 'U1' });
  });

  const nowS = () => Math.floor(Date.now() / 1000);
  it.each([
    ['a wrong signature', () => ({ secret: 'not-the-secret' })],
    ['a timestamp older than 5 minutes', () => ({ timestampS: nowS() - 310 })],
    ['a timestamp more than 5 minutes ahead', () => ({ timestampS: nowS() + 310 })],
  ])('refuses %s with 401 and processes nothing', async (_, signOptions) => {
    const recorder = recordingSink();
    const adapter = h.adapter({ settings: HTTP });
    await adapter.start(recorder.sink);
    const sign = signOptions();
    const response = await h.route()(h.signed(dmBody('forged'), sign));
    expect(response.status).toBe(401);
    // a signed request after it is processed (its 200 waits for the accept): the forged one never was
    expect((await h.route()(h.signed(dmBody('genuine')))).status).toBe(200);
    expect(recorder.attempts.map((event) => event.text)).toEqual(['genuine']);
  });

  it('refuses a body changed after signing, and a request without the signature headers', async () => {
    const recorder = recordingSink();
    const adapter = h.adapter({ settings: HTTP });
    await adapter.start(recorder.sink);
    const request = h.signed(dmBody('original'));
    const tampered: RouteRequest = { ...request, rawBody: request.rawBody.replace('original', 'tampered') };
    expect((await h.route()(tampered)).status).toBe(401);
    expect((await h.route()({ headers: {}, body: request.body, rawBody: request.rawBody })).status).toBe(401);
    expect(recorder.attempts).toHaveLength(0);
    const refusals = h.lines.filter((line) => line.level === 'warn').map((line) => line.msg);
    expect(refusals).toEqual([
      'slack: events request refused (bad signature)',
      'slack: events request refused (missing headers)',
    ]);
  });

  it('does not process a retried delivery (x-slack-retry-num) twice', async () => {
    const recorder = recordingSink();
    const adapter = h.adapter({ settings: HTTP });
    await adapter.start(recorder.sink);
    const body = dmBody('retried');
    expect((await h.route()(h.signed(body))).status).toBe(200);
    const retry = h.signed(body, { retryNum: 1, retryReason: 'http_timeout' });
    expect(retry.headers['x-slack-retry-num']).toBe('1');
    expect((await h.route()(retry)).status).toBe(200);
    expect((await h.route()(h.signed(body, { retryNum: 2, retryReason: 'http_timeout' }))).status).toBe(200);
    expect(recorder.attempts).toHaveLength(1);
  });

  it('answers a retry that arrives while the first delivery is still being accepted with the same outcome', async () => {
    const recorder = recordingSink();
    const adapter = h.adapter({ settings: HTTP });
    await adapter.start(recorder.sink);
    const release = recorder.hold();
    const body = dmBody('slow');
    const first = h.route()(h.signed(body));
    await eventually(() => recorder.attempts.length === 1);
    const retry = h.route()(h.signed(body, { retryNum: 1 }));
    release();
    expect((await first).status).toBe(200);
    expect((await retry).status).toBe(200);
    expect(recorder.attempts).toHaveLength(1);
  });

  it('answers 503, not 200, to an event that stop() cut off before the sink got it, so Slack retries', async () => {
    // found by the chaos suite: a 200 here lost the message (Slack never sends an answered event again)
    const recorder = recordingSink();
    const adapter = h.adapter({ settings: HTTP });
    await adapter.start(recorder.sink);
    const pending = h.route()(h.signed(dmBody('cut off by a stop')));
    const stopping = adapter.stop();
    expect((await pending).status).toBe(503);
    await stopping;
    expect(recorder.attempts).toHaveLength(0);
  });

  it('answers 500 when the sink keeps failing, so Slack retries; the retry is then accepted', async () => {
    const recorder = recordingSink();
    recorder.failNext(3);
    const adapter = h.adapter({ settings: HTTP });
    await adapter.start(recorder.sink);
    const body = dmBody('retry me');
    expect((await h.route()(h.signed(body))).status).toBe(500);
    expect(h.lines.some((line) => line.level === 'error' && /answered 500 so Slack retries/.test(line.msg ?? ''))).toBe(
      true,
    );
    expect((await h.route()(h.signed(body, { retryNum: 1 }))).status).toBe(200);
    expect(recorder.events.map((event) => event.text)).toEqual(['retry me']);
  });

  it('answers 200 at the ack deadline when the sink is slow, and still hands the event over', async () => {
    const recorder = recordingSink();
    const adapter = h.adapter({ settings: { ...HTTP, ack_deadline_ms: 50 } });
    await adapter.start(recorder.sink);
    const release = recorder.hold();
    const response = await h.route()(h.signed(dmBody('slow sink')));
    expect(response.status).toBe(200);
    expect(recorder.events).toHaveLength(0);
    release();
    await eventually(() => recorder.events.length === 1);
    expect(h.lines.some((line) => /ack deadline/.test(line.msg ?? ''))).toBe(true);
  });

  it('skips a malformed event with 200 (logged), and answers 400 to a body that is not JSON', async () => {
    const recorder = recordingSink();
    const adapter = h.adapter({ settings: HTTP });
    await adapter.start(recorder.sink);
    const broken = h.fake.eventCallback({ type: 'message', channel: 'C1', text: 'no user, no ts' });
    expect((await h.route()(h.signed(broken))).status).toBe(200);
    expect((await h.route()(h.signed('not json at all'))).status).toBe(400);
    const sslCheck = h.signed('ssl_check=1&token=legacy');
    expect((await h.route()({ ...sslCheck, body: { ssl_check: '1', token: 'legacy' } })).status).toBe(200);
    expect(recorder.attempts).toHaveLength(0);
    expect(h.lines.some((line) => line.level === 'warn' && /malformed event skipped/.test(line.msg ?? ''))).toBe(true);
    const mention = h.fake.messageEvent({ channel: 'C5', user: 'U1', text: `<@${BOT_USER}> hi` });
    expect((await h.route()(h.signed(h.fake.eventCallback(h.fake.appMentionEvent(mention))))).status).toBe(200);
    expect(recorder.events[0]?.source).toMatchObject({ chatId: 'C5', chatType: 'group', mentioned: true });
  });

  it('uses a custom events_path and answers 503 after stop, delivering nothing', async () => {
    const recorder = recordingSink();
    const adapter = h.adapter({ settings: { ...HTTP, events_path: '/hooks/slack' } });
    await adapter.start(recorder.sink);
    await adapter.stop();
    expect((await h.route('/hooks/slack')(h.signed(dmBody('late')))).status).toBe(503);
    expect(recorder.attempts).toHaveLength(0);
  });
});
