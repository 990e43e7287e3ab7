// Memory and session search through the real CLI: a secret of HERMES_HOME/.env that the model
// copies into a memory note is redacted before the file is written (and so never reaches a later
// system prompt); the memories folder is 0700 and its files 0600; the model cannot reach the
// memory files with the file tools (they live in HERMES_HOME); session_search never answers tool
// results (where secrets read by tools would be).
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ChatMessage, safeIdentityName } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();
const SECRET = 'svc-9f8e7d6c5b4a39281706';
const chat = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const messagesOf = (i: number) => (chat()[i]?.body as { messages: ChatMessage[] }).messages;
const toolResult = (i: number) => JSON.parse(String(messagesOf(i).find((m) => m.role === 'tool')?.content));

function home(): { home: string; env: Record<string, string> } {
  const dir = tempHome();
  writeFileSync(join(dir, '.env'), `BILLING_API_TOKEN=${SECRET}\n`, { mode: 0o600 });
  return {
    home: dir,
    env: { HERMES_HOME: dir, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model' },
  };
}

describe('memory security', () => {
  it('a secret copied into a memory note is redacted in the file and in the next system prompt; modes 0700/0600', async () => {
    const { home: dir, env } = home();
    openai.server.script(
      {
        toolCalls: [
          { name: 'memory', arguments: { action: 'add', target: 'memory', content: `billing token ${SECRET}` } },
        ],
      },
      { text: 'ok' },
      { text: 'next' },
    );
    expect((await runHermes(['-z', 'save the token'], { env })).stdout).toBe('ok\n');
    const file = join(dir, 'memories', 'MEMORY.md');
    expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
    expect(readFileSync(file, 'utf8')).toContain('billing token');
    expect(statSync(join(dir, 'memories')).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await runHermes(['-z', 'hello'], { env });
    expect(String(messagesOf(2)[0]?.content)).toContain('billing token');
    // the next session's request carries no trace of it (its own turn's tool call echoed the model's text)
    expect(JSON.stringify(chat()[2]?.body)).not.toContain(SECRET);
  });

  it('read_file cannot open the memory files (HERMES_HOME is outside the file roots)', async () => {
    const { home: dir, env } = home();
    openai.server.script(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'private note' } }] },
      { text: 'ok' },
      {
        toolCalls: [
          {
            name: 'read_file',
            arguments: { path: join(dir, 'memories', 'users', `${safeIdentityName('cli:local')}.md`) },
          },
        ],
      },
      { text: 'done' },
    );
    await runHermes(['-z', 'note'], { env });
    await runHermes(['-z', 'read it'], { env });
    const result = toolResult(3) as { error?: string; content?: string };
    expect(result.content).toBeUndefined();
    expect(result.error).toBeDefined();
  });

  it('session_search answers user and assistant words, never tool results', async () => {
    const { env } = home();
    openai.server.script(
      { toolCalls: [{ name: 'session_search', arguments: { query: 'nothing-yet' } }] },
      { text: 'the word is quokka' },
    );
    await runHermes(['-z', 'tell me a word'], { env });
    // the first session's tool result holds the query text; a later search for it finds no tool row
    openai.server.script(
      { toolCalls: [{ name: 'session_search', arguments: { query: 'quokka' } }] },
      { text: 'found' },
      { toolCalls: [{ name: 'session_search', arguments: { query: 'nothing-yet' } }] },
      { text: 'found' },
    );
    await runHermes(['-z', 'search'], { env });
    await runHermes(['-z', 'search again'], { env });
    const found = toolResult(3) as { results: { role: string; snippet: string }[] };
    expect(found.results).toEqual([expect.objectContaining({ role: 'assistant', snippet: 'the word is [quokka]' })]);
    const again = toolResult(5) as { results: { role: string }[] };
    expect(again.results.every((r) => r.role === 'assistant' || r.role === 'user')).toBe(true);
    expect(JSON.stringify(again.results)).not.toContain('"query"');
  });
});
