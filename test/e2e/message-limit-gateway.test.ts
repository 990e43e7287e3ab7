// context.hard_message_limit (the seeds' compression.hygiene_hard_message_limit) through `hermes
// gateway run` on Telegram: short exchanges whose tokens are nowhere near the threshold are
// compressed once the request passes the message count; the next request carries the summary and
// fewer messages; the log says the count triggered it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUMMARY_INSTRUCTIONS } from '@hermes/agent';
import { describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { telegramGatewayEnv, useFakeTelegram } from '../helpers/use-fake-telegram.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();
const telegram = useFakeTelegram();

type Message = { role: string; content: string };

describe('context.hard_message_limit through hermes gateway run', () => {
  it('compresses a chat past 6 messages although its tokens fit, and the log names the trigger', async () => {
    const home = tempHome();
    writeFileSync(
      join(home, 'config.yaml'),
      'gateway:\n  batch_ms: 0\ncontext:\n  protect_last_n: 2\n  hard_message_limit: 6\n',
    );
    openai.server.respond((req) => {
      const messages = (req.body as { messages: Message[] }).messages;
      if (messages[0]?.content === SUMMARY_INSTRUCTIONS) return { text: 'THE SUMMARY' };
      return { text: `Answer to ${String(messages.at(-1)?.content ?? '')}` };
    });
    const env = telegramGatewayEnv({
      home,
      modelUrl: openai.server.url,
      telegram: telegram.server,
      allowedUsers: '42',
    });
    const gw = await spawnGateway(env);
    const ask = async (text: string) => {
      telegram.server.pushMessage({ chatId: 42, userId: 42, text });
      await waitFor(() => telegram.server.sent.find((m) => m.text.includes(`Answer to ${text}`)), { what: text });
    };
    try {
      for (const text of ['one', 'two', 'three', 'four']) await ask(text);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    const requests = openai.server.requests
      .filter((r) => r.path === '/v1/chat/completions')
      .map((r) => (r.body?.messages ?? []) as Message[]);
    const isSummary = (messages: Message[]) => messages[0]?.content === SUMMARY_INSTRUCTIONS;
    // after the system prompt: 1, 3, 5 messages; the fourth turn's 7 pass the limit: a summary first
    expect(requests.map((m) => (isSummary(m) ? 'summary' : m.length - 1))).toEqual([1, 3, 5, 'summary', 6]);
    const last = requests.at(-1) ?? [];
    // the first exchange, the summary of the second, the last two exchanges whole
    expect(last.slice(1).map((m) => m.content.split('\n')[0])).toEqual([
      'one',
      'Answer to one',
      expect.stringContaining('Summary of the earlier conversation'),
      'three',
      'Answer to three',
      'four',
    ]);
    expect(last[3]?.content).toContain('THE SUMMARY');
    const log = readFileSync(join(home, 'logs', 'gateway.log'), 'utf8');
    expect(log).toMatch(
      /"trigger":"messages","hardMessageLimit":6,"messagesBefore":7,"messagesAfter":6.*context compressed/,
    );
  });
});
