import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();

const chatRequests = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const messagesOf = (i: number) => (chatRequests()[i]!.body as { messages: ChatMessage[] }).messages;

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function envFor(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model', ...extra };
}

describe('hermes -z', () => {
  it('prints only the answer on stdout and exits 0', async () => {
    const home = tempHome();
    openai.server.script({ text: 'Paris is the capital of France.' });
    const r = await runHermes(['-z', 'capital of France?'], { env: envFor(home) });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('Paris is the capital of France.\n');
    expect(r.code).toBe(0);
    expect(messagesOf(0).at(-1)).toEqual({ role: 'user', content: 'capital of France?' });
    expect(chatRequests()[0]?.body).toMatchObject({ model: 'test-model' });
  });

  it('runs a tool whose result reaches the answer', async () => {
    const home = tempHome();
    // HERMES_HOME/cache is one of the file tools' default roots (HERMES_HOME itself is not)
    mkdirSync(join(home, 'cache'));
    const file = join(home, 'cache', 'note.txt');
    writeFileSync(file, 'the secret word is marmalade\n');
    openai.server.script({ toolCalls: [{ name: 'read_file', arguments: { path: file } }] });
    openai.server.respond((req) => {
      const messages = (req.body as { messages: ChatMessage[] }).messages;
      const tool = messages.find((m) => m.role === 'tool');
      const content = tool ? (JSON.parse(tool.content) as { content: string }).content.trim() : 'no tool result';
      return { text: `The file says: ${content}` };
    });
    const r = await runHermes(['-z', 'what does note.txt say?'], { env: envFor(home) });
    expect(r.stdout).toBe('The file says: the secret word is marmalade\n');
    expect(r.code).toBe(0);
  });

  it('retries a 429 and then answers', async () => {
    const home = tempHome();
    openai.server.script({ status: 429, headers: { 'retry-after': '0' } }, { text: 'after 429' });
    const r = await runHermes(['-z', 'hi'], { env: envFor(home) });
    expect(r.stdout).toBe('after 429\n');
    expect(r.code).toBe(0);
    expect(chatRequests()).toHaveLength(2);
  });

  it('persistent 500: one clear line on stderr, nothing on stdout, non-zero exit', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'agent:\n  api_max_retries: 1\n');
    const failure = { status: 500, headers: { 'retry-after-ms': '1' } };
    openai.server.script(failure, failure);
    const r = await runHermes(['-z', 'hi'], { env: envFor(home) });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    // a code and a plain sentence; the endpoint and its words are in the log
    expect(lines[0]).toMatch(
      /^hermes: The model server answered with an error, HTTP 500: The server had an error while processing your request, \d attempts in \d+ s \(HERMES_MODEL_HTTP\)\. Details: .*cli\.log$/,
    );
    expect(chatRequests()).toHaveLength(2);
  });

  it('an unreachable model endpoint is one clear line and exit 1', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'agent:\n  api_max_retries: 0\n');
    const port = await closedPort();
    const r = await runHermes(['-z', 'hi'], {
      env: { ...envFor(home), OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
    });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `hermes: The model server could not be reached: connection refused (HERMES_MODEL_UNREACHABLE). Details: ${join(home, 'logs', 'cli.log')}`,
    );
    expect(readFileSync(join(home, 'logs', 'cli.log'), 'utf8')).toContain(
      `cannot reach model endpoint http://127.0.0.1:${port}/v1: connection refused (ECONNREFUSED)`,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('keeps the transcript in state.db and writes JSON log lines without secrets', async () => {
    const home = tempHome();
    const apiKey = 'sk-live-e2e-secret-0123456789abcdef';
    const tgToken = '123456789:AAHsecretsecretsecretsecretsecret12';
    writeFileSync(join(home, '.env'), `OPENAI_API_KEY=${apiKey}\nTELEGRAM_BOT_TOKEN=${tgToken}\n`);
    writeFileSync(join(home, 'config.yaml'), 'logging:\n  level: trace\n');
    openai.server.script(
      { toolCalls: [{ name: 'terminal', arguments: { command: `echo ${tgToken}` } }] },
      { text: 'done' },
    );
    const r = await runHermes(['-z', `please echo ${tgToken}`], { env: envFor(home) });
    expect(r.code).toBe(0);
    // the key reached the model endpoint (so it was loaded) ...
    expect(chatRequests()[0]?.headers.authorization).toBe(`Bearer ${apiKey}`);
    // ... and the terminal output the model saw was redacted
    const tool = messagesOf(1).find((m) => m.role === 'tool');
    expect(tool?.content).not.toContain(tgToken);
    const logDir = join(home, 'logs');
    const files = readdirSync(logDir);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const text = readFileSync(join(logDir, f), 'utf8');
      expect(text).not.toContain(apiKey);
      expect(text).not.toContain(tgToken);
      for (const line of text.trim().split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
    }
  });
});

describe('bad config', () => {
  it('names file, line and key, with no stack trace, exit 78; doctor reports it', async () => {
    const home = tempHome();
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'config.yaml'), 'model:\n  default: test-model\n  timeout_s: fast\n');
    const r = await runHermes(['-z', 'hi'], { env: envFor(home) });
    expect(r.code).toBe(78);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`${join(home, 'config.yaml')}:3`);
    expect(r.stderr).toContain('model.timeout_s');
    expect(r.stderr).toMatch(/expected number/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(chatRequests()).toHaveLength(0);

    const d = await runHermes(['doctor'], { env: envFor(home) });
    expect(d.code).toBe(1);
    expect(d.stdout).toMatch(/✗ config: .*config\.yaml:3.*model\.timeout_s/);
  });

  it('a YAML syntax error names file and line', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'model:\n  default: [unclosed\n');
    const r = await runHermes(['-z', 'hi'], { env: envFor(home) });
    expect(r.code).toBe(78);
    expect(r.stderr).toContain(join(home, 'config.yaml'));
    expect(r.stderr).toMatch(/:\d+/);
  });

  it('an unknown key is a warning naming the valid keys, and the answer still comes', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'modle:\n  default: x\n');
    openai.server.script({ text: 'fine' });
    const r = await runHermes(['-z', 'hi'], { env: envFor(home) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('fine\n');
    expect(r.stderr).toMatch(/warning: .*unknown key "modle".*valid keys: .*model/);
  });
});
