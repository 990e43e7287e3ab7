// Hot reload through `hermes gateway run` on Telegram (real grammy against the fake Bot API, long
// polling): `hermes plugins enable calculator` + `hermes gateway reload` offers the plugin's tool to
// the next turn while the Telegram connection stays (no webhook call, getUpdates offsets go on) and a
// turn running during the reload finishes; a broken config.yaml is refused (exit 78, file and line)
// with the gateway running on the old one; a key only a restart applies is reported (exit 75) while
// the turn settings of the same reload reach the next turn.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import type { FakeToolCall, RecordedRequest } from '../fakes/openai-server.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { telegramGatewayEnv, useFakeTelegram } from '../helpers/use-fake-telegram.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();
const telegram = useFakeTelegram();

const messagesOf = (r: RecordedRequest | undefined) => (r?.body?.messages ?? []) as ChatMessage[];
const toolNames = (r: RecordedRequest | undefined) =>
  ((r?.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
/** HOME/plugins/greeter: a user plugin (its code needs the operator's approval, trust.json) with one tool. */
function writeGreeter(home: string): void {
  const dir = join(home, 'plugins', 'greeter');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), 'name: greeter\nversion: 1.0.0\ndescription: greets\n');
  writeFileSync(
    join(dir, 'index.ts'),
    `export function register(ctx: { registerTool(t: unknown): void }): void {
  ctx.registerTool({
    name: 'greet',
    toolset: 'greeter',
    schema: { name: 'greet', description: 'greets', parameters: { type: 'object', properties: {} } },
    handler: () => 'hello from greeter',
  });
}
`,
  );
}
const chatRequests = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));

describe('hermes gateway reload on a running gateway (Telegram, long polling)', () => {
  it('loads a newly enabled plugin with the connection kept, refuses a broken config, reports restart keys', async () => {
    const tg = telegram.server;
    const home = tempHome();
    const configFile = join(home, 'config.yaml');
    writeFileSync(configFile, 'gateway:\n  batch_ms: 0\n');
    writeGreeter(home);
    // the call-plan model (CALL [...] runs tools, then answers with their results); HOLD waits for `release`
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    openai.server.respond(async (req) => {
      const messages = messagesOf(req);
      const lastUser = messages.map((m) => m.role).lastIndexOf('user');
      const results = messages.slice(lastUser + 1).filter((m) => m.role === 'tool');
      if (results.length > 0) return { text: results.map((m) => m.content).join('\n') };
      const prompt = String(messages[lastUser]?.content ?? '');
      if (prompt.includes('HOLD')) {
        await held;
        return { text: 'the held answer' };
      }
      const plan = /CALL (\[.*\])/s.exec(prompt)?.[1];
      return plan ? { toolCalls: JSON.parse(plan) as FakeToolCall[] } : { text: 'no plan' };
    });
    const env = telegramGatewayEnv({ home, modelUrl: openai.server.url, telegram: tg, allowedUsers: '42' });
    const gw = await spawnGateway(env);
    const ask = async (text: string): Promise<string> => {
      const before = tg.sent.length;
      tg.pushMessage({ chatId: 42, userId: 42, text });
      const reply = await waitFor(() => tg.sent[before], { what: `the answer to ${text}` });
      return reply.text ?? '';
    };
    const reload = () => runHermes(['gateway', 'reload'], { env: { HERMES_HOME: home } });
    const calc = 'CALL [{"name":"calculate","arguments":{"expression":"6*7"}}]';
    try {
      // a turn running across the reload: its model request is held until after it
      const heldBefore = tg.sent.length;
      tg.pushMessage({ chatId: 42, userId: 42, text: 'HOLD please' });
      const heldRequest = await waitFor(() =>
        chatRequests().find((r) => messagesOf(r).some((m) => String(m.content).includes('HOLD'))),
      );
      expect(toolNames(heldRequest)).not.toContain('calculate');
      const startCalls = tg.calls.length;
      const offsetsBefore = tg.calls.filter((c) => c.method === 'getUpdates').map((c) => Number(c.body.offset ?? 0));

      // calculator (bundled) and greeter (not approved) enabled: only calculator loads
      writeFileSync(configFile, 'gateway:\n  batch_ms: 0\nplugins:\n  enabled: [greeter]\n');
      const enabled = await runHermes(['plugins', 'enable', 'calculator'], { env: { HERMES_HOME: home } });
      expect(enabled.code, enabled.stderr).toBe(0);
      const partial = await reload();
      expect(partial.code).toBe(1);
      expect(partial.stderr).toContain('plugin calculator loaded (tools: calculate, unit_convert)');
      expect(partial.stderr).toContain('skills added: calculator');
      expect(partial.stderr).toMatch(
        /failed: plugin greeter .*not approved \(new\); run `hermes trust approve plugin:greeter`/,
      );
      // approved, it loads at the next reload
      const approve = await runHermes(['trust', 'approve', 'plugin:greeter', '--yes'], { env: { HERMES_HOME: home } });
      expect(approve.code, approve.stderr).toBe(0);
      const applied = await reload();
      expect(applied.code, applied.stderr).toBe(0);
      expect(applied.stdout).toContain('plugin greeter loaded (tools: greet)');
      // the result the gateway wrote, and its one log line
      const written = JSON.parse(readFileSync(join(home, 'gateway.reload.json'), 'utf8')) as { pid: number };
      expect(written.pid).toBe(gw.child.pid);
      await waitFor(() => gw.stderr().includes('hermes gateway reloaded (generation 2)'));

      // the running turn finishes with what it started with
      release();
      await waitFor(() => tg.sent.slice(heldBefore).find((m) => m.text === 'the held answer'));
      // the next turn is offered the plugin's tool, and calling it works
      expect(await ask(calc)).toContain('"result":42');
      const calcRequest = chatRequests().find((r) => messagesOf(r).some((m) => String(m.content).includes('6*7')));
      expect(toolNames(calcRequest)).toEqual(expect.arrayContaining(['calculate', 'greet']));

      // the Telegram connection was kept: no webhook call, no new getMe, the offsets went on
      const after = tg.calls.slice(startCalls);
      expect(
        after.filter((c) => ['setWebhook', 'deleteWebhook', 'getMe', 'close', 'logOut'].includes(c.method)),
      ).toEqual([]);
      const offsetsAfter = after.filter((c) => c.method === 'getUpdates').map((c) => Number(c.body.offset ?? 0));
      expect(offsetsAfter.length).toBeGreaterThan(0);
      const lastBefore = Math.max(...offsetsBefore);
      expect(lastBefore).toBeGreaterThan(0);
      for (const offset of offsetsAfter) expect(offset).toBeGreaterThanOrEqual(lastBefore);

      // a broken config.yaml: refused, naming file and line; the gateway keeps the running config
      const good = readFileSync(configFile, 'utf8');
      writeFileSync(configFile, `${good}agent:\n  max_iterations: [oops\n`);
      const refused = await reload();
      expect(refused.code).toBe(78);
      expect(refused.stderr).toMatch(/reload refused \(the running configuration stays\): .*config\.yaml:\d+/);
      expect(await ask(calc)).toContain('"result":42');

      // a key only a restart applies is reported; the turn settings of the same file apply to new
      // turns, and the plugin no longer enabled is unloaded (its tools no longer offered)
      writeFileSync(
        configFile,
        'gateway:\n  batch_ms: 0\n  max_concurrent_runs: 3\nagent:\n  system_prompt: You are the reloaded assistant.\nplugins:\n  enabled: [greeter]\n',
      );
      const restart = await reload();
      expect(restart.code, restart.stderr).toBe(75);
      expect(restart.stdout).toContain('needs a restart: gateway.max_concurrent_runs');
      expect(restart.stdout).toContain('new turns use: agent.system_prompt');
      expect(restart.stdout).toContain('plugin calculator unloaded');
      await ask('hello again');
      const last = chatRequests().at(-1);
      expect(String(messagesOf(last)[0]?.content)).toContain('You are the reloaded assistant.');
      expect(toolNames(last)).not.toContain('calculate');
      expect(toolNames(last)).toContain('greet');
      expect(gw.child.exitCode).toBeNull();
    } finally {
      release();
      expect(await gw.stop()).toBe(0);
    }
  });
});
