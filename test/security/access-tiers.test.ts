// Access tiers and budgets through `hermes gateway run` with real grammy against the fake Bot API
// and the real openai client against the fake model (which records every request). Two allowed
// Telegram users and no admin configured: 42, the first of TELEGRAM_ALLOWED_USERS, is the owner
// (admin); 43 is a `user`. docs/security.md "Tiers and budgets".
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fakes/openai-server.js';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram-server.js';
import { tempHome, trustHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken1234';
const ADMIN = 42;
const USER = 43;
const openai = useFakeOpenAI();
let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
});
afterAll(async () => {
  await tg.close();
});
beforeEach(() => {
  tg.reset();
  openai.server.respond(() => ({ text: 'model answer', usage: { prompt_tokens: 30, completion_tokens: 10 } }));
});

const env = (home: string, extra: Record<string, string> = {}) => ({
  HERMES_HOME: home,
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'test-model',
  TELEGRAM_BOT_TOKEN: TOKEN,
  TELEGRAM_API_ROOT: tg.apiRoot,
  TELEGRAM_ALLOWED_USERS: `${ADMIN},${USER}`,
  ...extra,
});

/** A gateway on a fresh home (with this config.yaml), once grammy polls. */
async function start(extra: Record<string, string> = {}, config?: string) {
  const home = tempHome();
  if (config !== undefined) writeFileSync(join(home, 'config.yaml'), config);
  const gw = await spawnGateway(env(home, extra));
  await waitFor(() => tg.pendingPolls() > 0, { what: 'the first getUpdates poll' });
  return { home, gw };
}

const chatRequests = (): RecordedRequest[] =>
  openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const toolNames = (r: RecordedRequest | undefined): string[] =>
  ((r?.body?.tools ?? []) as { function?: { name?: string } }[]).map((t) => t.function?.name ?? '');
const lastUserText = (r: RecordedRequest | undefined): string => {
  const users = ((r?.body?.messages ?? []) as { role?: string; content?: unknown }[]).filter((m) => m.role === 'user');
  const content = users.at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
};

/** Sends `text` as `user` and resolves with the bot's next message to that chat. */
async function say(user: number, text: string): Promise<string> {
  const before = tg.sent.filter((m) => m.chat_id === user).length;
  tg.pushMessage({ chatId: user, userId: user, text });
  await waitFor(() => tg.sent.filter((m) => m.chat_id === user).length > before, { what: `an answer to ${user}` });
  return tg.sent.filter((m) => m.chat_id === user)[before]?.text ?? '';
}

describe('access tiers through hermes gateway run', () => {
  it('a user cannot run /model (told why) and gets no terminal or write_file; the owner can; quick commands work', async () => {
    const { gw } = await start({}, 'quick_commands:\n  greet: "Say hello to me in French"\n  m: "/model"\n');
    try {
      // the user: /model refused with the reason, nothing asked of the model
      expect(await say(USER, '/model')).toBe(
        "/model is for admins of this bot (it switches this chat's model); ask the bot's owner.",
      );
      expect(await say(USER, '/model gpt-x')).toMatch(/^\/model is for admins of this bot/);
      expect(await say(USER, '/sethome')).toMatch(/^\/sethome is for admins of this bot/);
      expect(chatRequests()).toHaveLength(0);
      // the user's turn: no terminal, no write_file in the tools the model is offered
      expect(await say(USER, 'hello')).toBe('model answer');
      const userTools = toolNames(chatRequests().at(-1));
      expect(userTools).toContain('read_file');
      expect(userTools).not.toContain('terminal');
      expect(userTools).not.toContain('write_file');
      expect(userTools).not.toContain('patch');
      expect(userTools).not.toContain('execute_code');
      expect(userTools).toContain('search_files');
      // a quick command's text goes to the model; an alias of an admin command is still refused
      expect(await say(USER, '/greet')).toBe('model answer');
      expect(lastUserText(chatRequests().at(-1))).toContain('Say hello to me in French');
      expect(await say(USER, '/m')).toMatch(/^\/model is for admins of this bot/);
      expect(await say(USER, '/help')).toContain('Quick commands:\n/greet · Say hello to me in French\n/m · /model');
      // the owner (first allowed id, no admin configured): /model runs, terminal is offered
      const modelText = await say(ADMIN, '/model');
      expect(modelText).not.toMatch(/for admins/);
      expect(modelText).toContain('test-model');
      expect(await say(ADMIN, '/m')).toBe(modelText);
      expect(await say(ADMIN, 'hello')).toBe('model answer');
      const adminTools = toolNames(chatRequests().at(-1));
      expect(adminTools).toContain('terminal');
      expect(adminTools).toContain('write_file');
      expect(adminTools).toContain('patch');
      expect(adminTools).toContain('execute_code');
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });

  it('exclude_commands turn commands off per tier; a plugin command registered adminOnly is refused to users', async () => {
    const home = tempHome();
    const dir = join(home, 'plugins', 'opsy');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'plugin.yaml'), 'name: opsy\nversion: 1.0.0\ndescription: ops commands\n');
    writeFileSync(
      join(dir, 'index.ts'),
      [
        'export function register(ctx: { registerCommand(c: object): void }): void {',
        "  ctx.registerCommand({ name: 'flush', description: 'flushes caches', adminOnly: true, handler: () => 'flushed' });",
        "  ctx.registerCommand({ name: 'ping', description: 'answers pong', handler: () => 'pong' });",
        '}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(home, 'config.yaml'),
      [
        'plugins:',
        '  enabled: [opsy]',
        'access:',
        '  tiers:',
        '    admin:',
        "      exclude_commands: ['/sethome']",
        '    user:',
        '      exclude_commands: [ping, new]',
        '',
      ].join('\n'),
    );
    trustHome(home);
    const gw = await spawnGateway(env(home));
    try {
      await waitFor(() => tg.pendingPolls() > 0, { what: 'the first getUpdates poll' });
      // /help tells a user which commands are for admins; an admin's /help does not mark them
      const userHelp = await say(USER, '/help');
      expect(userHelp).toContain('/flush · flushes caches (admins only)');
      expect(userHelp).toContain("/model · /model [provider:]model: show or switch this chat's model (admins only)");
      expect(userHelp).toMatch(/^\/ping · answers pong$/m);
      expect(await say(ADMIN, '/help')).not.toContain('(admins only)');
      expect(await say(USER, '/flush')).toBe(
        "/flush is for admins of this bot (its plugin says so); ask the bot's owner.",
      );
      expect(await say(ADMIN, '/flush')).toBe('flushed');
      expect(await say(USER, '/ping')).toBe(
        '/ping is turned off for users of this bot (access.tiers.user.exclude_commands).',
      );
      expect(await say(USER, '/new')).toMatch(/^\/new is turned off for users/);
      expect(await say(ADMIN, '/ping')).toBe('pong');
      expect(await say(ADMIN, '/sethome')).toBe(
        '/sethome is turned off for admins of this bot (access.tiers.admin.exclude_commands).',
      );
      expect(chatRequests()).toHaveLength(0);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });

  it('TELEGRAM_ADMIN_USERS names the admins: then the first allowed id is a user like the rest', async () => {
    const { gw } = await start({ TELEGRAM_ADMIN_USERS: String(USER) });
    try {
      expect(await say(ADMIN, '/model')).toMatch(/^\/model is for admins of this bot/);
      expect(await say(USER, '/model')).toContain('test-model');
    } finally {
      await gw.stop();
    }
  });

  it('turns per minute: over the limit the user is told when it resets and the model gets no request; then it resets', async () => {
    // the limits' clock runs 20 times faster (test-only): a minute passes in 3 s
    const { gw } = await start(
      { HERMES_LIMITS_CLOCK_SPEED: '20' },
      'access:\n  tiers:\n    user:\n      limits:\n        turns_per_minute: 1\n',
    );
    try {
      expect(await say(USER, 'first')).toBe('model answer');
      const asked = chatRequests().length;
      const refusal = await say(USER, 'second');
      expect(refusal).toMatch(
        /^You have reached your limit of 1 turns a minute\. It resets in \d+ s \(at \d\d:\d\d:\d\d UTC\)\.$/,
      );
      expect(chatRequests()).toHaveLength(asked);
      // the admin has no limit
      expect(await say(ADMIN, 'me too')).toBe('model answer');
      expect(await say(ADMIN, 'and again')).toBe('model answer');
      // the window ends a minute (3 s here) after its first turn: the user is answered again
      const started = Date.now();
      let answer = refusal;
      while (answer !== 'model answer') {
        if (Date.now() - started > 15_000) throw new Error('the limit did not reset');
        await new Promise((r) => setTimeout(r, 250));
        answer = await say(USER, 'again?');
      }
      const metrics = await (await fetch(`${gw.url}/metrics`)).text();
      expect(metrics).toMatch(/hermes_user_limited_total\{user="telegram:43",limit="turns_per_minute"\} [1-9]/);
      expect(metrics).toMatch(/hermes_user_turns_total\{user="telegram:43",tier="user"\} 2/);
      expect(metrics).toMatch(/hermes_user_tokens_total\{user="telegram:43"\} 80/);
    } finally {
      await gw.stop();
    }
  });

  it('tokens per day: the count survives a restart (state.db), per-user overrides win over the tier', async () => {
    const config = [
      'access:',
      '  tiers:',
      '    user:',
      '      limits:',
      '        tokens_per_day: 30',
      '  users:',
      `    "telegram:${ADMIN}":`,
      '      limits:',
      '        tokens_per_day: 30',
      '',
    ].join('\n');
    const started = await start({}, config);
    let gw = started.gw;
    try {
      expect(await say(USER, 'one')).toBe('model answer'); // 40 tokens reported: over 30 from now on
      const asked = chatRequests().length;
      expect(await say(USER, 'two')).toMatch(/^You have reached your limit of 30 tokens a day\. It resets in /);
      // the admin's own override limits them too
      expect(await say(ADMIN, 'one')).toBe('model answer');
      expect(await say(ADMIN, 'two')).toMatch(/^You have reached your limit of 30 tokens a day/);
      expect(chatRequests()).toHaveLength(asked + 1);
      await gw.stop();
      gw = await spawnGateway(env(started.home));
      await waitFor(() => tg.pendingPolls() > 0, { what: 'the first poll after the restart' });
      expect(await say(USER, 'after the restart')).toMatch(/^You have reached your limit of 30 tokens a day/);
      expect(chatRequests()).toHaveLength(asked + 1);
    } finally {
      await gw.stop();
    }
  });
});
