// agent.tool_descriptions through `hermes -z`: `short` keeps each tool's first sentence and drops the
// parameters' descriptions (the figures in docs/context-engines.md, characters / 4, the context
// engine's estimate, are printed here); `auto`, the default, does it for a small context window:
// a 4,096-token model on Telegram (gateway run) keeps the previous exchanges whole.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUMMARY_INSTRUCTIONS } from '@hermes/agent';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { telegramGatewayEnv, useFakeTelegram } from '../helpers/use-fake-telegram.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();
const telegram = useFakeTelegram();

interface Schema {
  function: {
    name: string;
    description: string;
    parameters: { properties?: Record<string, { description?: string }> };
  };
}

async function toolsOfOneRequest(config: string): Promise<Schema[]> {
  const home = tempHome();
  writeFileSync(join(home, 'config.yaml'), config);
  openai.server.reset();
  openai.server.script({ text: 'ok' });
  const r = await runHermes(['-z', 'hi'], {
    env: { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model' },
  });
  expect(r.code, r.stderr).toBe(0);
  return (openai.server.requests.find((q) => q.path.endsWith('/chat/completions'))?.body as { tools: Schema[] }).tools;
}

describe('agent.tool_descriptions', () => {
  it('short: first sentences only, no parameter descriptions, the same tools, under half the size', async () => {
    const full = await toolsOfOneRequest('');
    const short = await toolsOfOneRequest('agent:\n  tool_descriptions: short\n');
    expect(short.map((t) => t.function.name)).toEqual(full.map((t) => t.function.name));
    const patch = short.find((t) => t.function.name === 'patch');
    expect(patch?.function.description).toBe('Change part of a text file without rewriting it whole.');
    for (const t of short) {
      for (const property of Object.values(t.function.parameters.properties ?? {}))
        expect(property.description).toBeUndefined();
    }
    const tokens = (tools: Schema[]) => Math.round(JSON.stringify(tools).length / 4);
    console.log(
      `tool schemas (${full.length} tools, defaults): full ~${tokens(full)} tokens, short ~${tokens(short)} tokens`,
    );
    expect(tokens(short)).toBeLessThan(tokens(full) / 2);
  });

  it('a 4,096-token model on Telegram keeps the previous exchanges whole (auto: short descriptions, no summary)', async () => {
    const tg = telegram.server;
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'gateway:\n  batch_ms: 0\nmodel:\n  context_length: 4096\n');
    openai.server.reset();
    let n = 0;
    openai.server.respond(() => ({ text: `answer ${++n}` }));
    const gw = await spawnGateway(
      telegramGatewayEnv({ home, modelUrl: openai.server.url, telegram: tg, allowedUsers: '42' }),
    );
    try {
      for (const [i, text] of ['first question about apples', 'second question about pears', 'third'].entries()) {
        tg.pushMessage({ chatId: 42, userId: 42, text });
        await waitFor(() => tg.sent.length > i, { what: `the answer to "${text}"` });
      }
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    const requests = openai.server.requests.filter((q) => q.path.endsWith('/chat/completions'));
    // three turns, three requests: no summary request in between
    expect(requests).toHaveLength(3);
    const last = requests[2]?.body as { messages: { role: string; content: string }[]; tools: Schema[] };
    expect(last.messages.filter((m) => m.role !== 'system').map((m) => m.content)).toEqual([
      'first question about apples',
      'answer 1',
      'second question about pears',
      'answer 2',
      'third',
    ]);
    expect(last.tools.find((t) => t.function.name === 'patch')?.function.description).toBe(
      'Change part of a text file without rewriting it whole.',
    );
  });

  it('a 4,096-token model with long exchanges: the last two go out whole, the older ones (head too) in a summary', async () => {
    const tg = telegram.server;
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'gateway:\n  batch_ms: 0\nmodel:\n  context_length: 4096\n');
    openai.server.reset();
    // ~300 tokens a message: four exchanges pass the 3,072-token budget; the last two alone do not
    const long = (word: string) => `${word} ${'lorem ipsum '.repeat(100)}`;
    let n = 0;
    openai.server.respond((request) => {
      const first = (request.body as { messages: { content: string }[] }).messages[0]?.content;
      // the prompt's tokens as a provider counts them (schemas included), so the estimate is not scaled down
      const usage = { prompt_tokens: Math.ceil(JSON.stringify(request.body).length / 4), completion_tokens: 300 };
      return { text: first === SUMMARY_INSTRUCTIONS ? 'THE SUMMARY' : long(`answer${++n}`), usage };
    });
    const gw = await spawnGateway(
      telegramGatewayEnv({ home, modelUrl: openai.server.url, telegram: tg, allowedUsers: '42' }),
    );
    try {
      for (const [i, word] of ['first', 'second', 'third', 'fourth'].entries()) {
        tg.pushMessage({ chatId: 42, userId: 42, text: long(word) });
        await waitFor(() => tg.sent.length > i, { what: `the answer to the ${word} question` });
      }
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    const turns = openai.server.requests
      .filter((q) => q.path.endsWith('/chat/completions'))
      .map((q) => (q.body as { messages: { role: string; content: string }[] }).messages)
      .filter((messages) => messages[0]?.content !== SUMMARY_INSTRUCTIONS);
    const last = (turns.at(-1) ?? []).filter((m) => m.role !== 'system').map((m) => m.content);
    // the head (the first exchange) folded into the summary with the second; the third and fourth whole
    expect(last).toEqual([expect.stringContaining('THE SUMMARY'), long('third'), long('answer3'), long('fourth')]);
  });

  it('agent.model_toolsets and gateway.channel_toolsets narrow the tools of that model and of that chat', async () => {
    const tg = telegram.server;
    const home = tempHome();
    writeFileSync(
      join(home, 'config.yaml'),
      [
        'gateway:',
        '  batch_ms: 0',
        '  channel_toolsets:',
        '    "telegram:42": [todo, read_file]',
        'agent:',
        '  model_toolsets:',
        '    test-model: [file, todo]',
        '    other-model: [memory]',
        '',
      ].join('\n'),
    );
    openai.server.reset();
    openai.server.respond(() => ({ text: 'ok' }));
    const gw = await spawnGateway(
      telegramGatewayEnv({ home, modelUrl: openai.server.url, telegram: tg, allowedUsers: '42,43' }),
    );
    try {
      tg.pushMessage({ chatId: 42, userId: 42, text: 'in the narrowed chat' });
      await waitFor(() => tg.sent.length > 0, { what: 'the answer in chat 42' });
      tg.pushMessage({ chatId: 43, userId: 43, text: 'in another chat' });
      await waitFor(() => tg.sent.length > 1, { what: 'the answer in chat 43' });
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    const names = openai.server.requests
      .filter((q) => q.path.endsWith('/chat/completions'))
      .map((q) => ((q.body as { tools?: Schema[] }).tools ?? []).map((t) => t.function.name).sort());
    // chat 42: the model's set (file, todo) within the channel's (todo, read_file)
    expect(names[0]).toEqual(['read_file', 'todo']);
    // chat 43: the model's set alone, within the user tier's (no write_file, no patch)
    expect(names[1]).toEqual(['read_file', 'search_files', 'todo']);
  });
});
