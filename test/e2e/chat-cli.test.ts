// Bare `hermes` is the chat, its banner listing the tools (the help before a model is set); and
// ctx.injectMessage in `hermes chat` (the built CLI, stdin kept open as a person's terminal): at
// the prompt an injected message starts its turn at once, without a line typed; during a turn it
// interrupts the turn and runs next; a role other than user arrives as a `[role] ` prefix.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { HERMES_BIN, runHermes, tempHome, trustHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();

// `/later TEXT`: injects TEXT as a system message 200 ms later (the chat is back at its prompt);
// `/during TEXT`: injects TEXT as soon as the next model request has been sent
const PLUGIN = `
export function register(ctx) {
  let during = null;
  ctx.registerCommand({ name: 'later', description: 'inject later', handler: (args) => {
    setTimeout(() => ctx.injectMessage(args, { role: 'system' }), 200);
    return 'scheduled';
  } });
  ctx.registerCommand({ name: 'during', description: 'inject during the next turn', handler: (args) => {
    during = args;
    return 'armed';
  } });
  ctx.registerHook('pre_api_request', () => {
    if (during === null) return;
    const text = during;
    during = null;
    setTimeout(() => ctx.injectMessage(text), 300);
  });
}`;

const lastUser = (i: number) =>
  (
    openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'))[i]?.body as { messages: ChatMessage[] }
  )?.messages.at(-1);

describe('ctx.injectMessage in hermes chat', () => {
  it('wakes the idle prompt, interrupts a running turn, and prefixes a non-user role', async () => {
    const home = tempHome();
    const dir = join(home, 'plugins', 'injector');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'plugin.yaml'), 'name: injector\nversion: 1.0.0\ndescription: injects\n');
    writeFileSync(join(dir, 'index.mjs'), PLUGIN);
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [injector]\n');
    trustHome(home);
    const child = spawn(process.execPath, [HERMES_BIN, 'chat'], {
      env: {
        PATH: process.env.PATH ?? '',
        HERMES_HOME: home,
        OPENAI_BASE_URL: openai.server.url,
        HERMES_INFERENCE_MODEL: 'm',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await waitFor(() => out.includes('you> '), { what: 'the chat prompt' });
      // idle: nothing typed after /later, yet the injected message is answered
      openai.server.script({ text: 'answer to the system note' });
      child.stdin.write('/later the build finished\n');
      await waitFor(() => out.includes('answer to the system note'), { what: 'the injected turn answered' });
      expect(out).toContain('[injected] [system] the build finished');
      expect(lastUser(0)).toEqual({ role: 'user', content: '[system] the build finished' });

      // during a turn: the slow answer is interrupted and the injected message runs next
      openai.server.script({ text: 'too slow', delayMs: 20_000 }, { text: 'answer to the interruption' });
      child.stdin.write('/during stop, news\n');
      await waitFor(() => out.includes('armed'), { what: 'the command answered' });
      child.stdin.write('a long question\n');
      await waitFor(() => out.includes('answer to the interruption'), { what: 'the interrupting turn answered' });
      expect(out).toContain('[interrupted by an injected message]');
      expect(out).not.toContain('too slow');
      expect(lastUser(1)).toEqual({ role: 'user', content: 'a long question' });
      expect(lastUser(2)).toEqual({ role: 'user', content: 'stop, news' });

      // the prompt still takes the user's own lines
      openai.server.script({ text: 'typed answer' });
      child.stdin.write('typed by hand\n');
      await waitFor(() => out.includes('typed answer'), { what: "the user's own line answered" });
      expect(lastUser(3)).toEqual({ role: 'user', content: 'typed by hand' });
      child.stdin.end('/exit\n');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('bare hermes', () => {
  it('is the chat, its banner listing the tools offered (plugin tools by plugin); before a model is set, the help', async () => {
    const home = tempHome();
    const dir = join(home, 'plugins', 'injector');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'plugin.yaml'), 'name: injector\nversion: 1.0.0\ndescription: injects\n');
    writeFileSync(
      join(dir, 'index.mjs'),
      `export function register(ctx) { ctx.registerTool({ name: 'weather', toolset: 'extras', schema: { name: 'weather', description: 'd', parameters: { type: 'object', properties: {} } }, handler: () => 'sunny' }); }`,
    );
    writeFileSync(
      join(home, 'config.yaml'),
      'plugins:\n  enabled: [injector]\nagent:\n  toolsets: [terminal, extras]\n',
    );
    trustHome(home);
    const env = { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url };
    const first = await runHermes([], { env, input: '' });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Usage: hermes');
    expect(first.stdout).toContain('No model configured yet: set model.default');

    openai.server.script({ text: 'hi from bare hermes' });
    const chat = await runHermes([], { env: { ...env, HERMES_INFERENCE_MODEL: 'm' }, input: 'hello\n/exit\n' });
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toContain('Hermes chat · model m');
    // agent.toolsets [terminal, extras]: the terminal tool and the plugin's, nothing else
    expect(chat.stdout).toContain('Tools (2): terminal\n  from plugin injector: weather\n');
    expect(chat.stdout).toContain('hi from bare hermes');
  });

  it('/reasoning show prints the thinking above the answer; hidden by default and after /reasoning hide', async () => {
    const home = tempHome();
    const env = { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'm' };
    openai.server.script(
      { reasoning: 'first thoughts', text: 'answer one' },
      { text: '<think>second thoughts</think>answer two' },
      { reasoning: 'third thoughts', text: 'answer three' },
    );
    const chat = await runHermes(['chat'], {
      env,
      input: 'one\n/reasoning show\ntwo\n/reasoning hide\nthree\n/exit\n',
    });
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toContain('answer one');
    expect(chat.stdout).not.toContain('first thoughts');
    expect(chat.stdout).toContain("The model's thinking is shown above its answers.");
    expect(chat.stdout).toContain('💭 Thinking:\nsecond thoughts\n\nanswer two');
    expect(chat.stdout).toContain('answer three');
    expect(chat.stdout).not.toContain('third thoughts');
  });

  it("/undo, /retry, /title, /sessions and /resume work on the chat's sessions", async () => {
    const home = tempHome();
    const env = { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'm' };
    let n = 0;
    openai.server.respond(() => ({ text: `answer ${++n}` }));
    const first = await runHermes(['chat'], { env, input: 'remember the milk\n/title Groceries\n/exit\n' });
    expect(first.stdout).toContain('This session is now "Groceries".');
    const chat = await runHermes(['chat'], {
      env,
      input: 'one\ntypo\n/undo\n/retry\n/sessions\n/resume 2\nand bread\n/exit\n',
    });
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toContain('Took back "typo" and its answer (2 messages)');
    const users = openai.server.requests
      .filter((r) => r.path.endsWith('/chat/completions'))
      .map((r) =>
        (r.body as { messages: ChatMessage[] }).messages.filter((m) => m.role === 'user').map((m) => m.content),
      );
    // /retry asked "one" again without its first answer; /resume went back to the groceries
    expect(users.slice(1)).toEqual([['one'], ['one', 'typo'], ['one'], ['remember the milk', 'and bread']]);
    expect(chat.stdout).toMatch(
      /1\. untitled · 2 messages · just now \(current\)\n2\. "Groceries" · 2 messages · just now/,
    );
    expect(chat.stdout).toContain('Resumed "Groceries" (2 messages)');
  });
});
