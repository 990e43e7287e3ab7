// Issue 19's memory acceptance, run through the built CLI against the fake model:
// - `memory` tool writes (the model calls the tool) survive a restart and appear in the next
//   session's system prompt, which stays as it began for the session that wrote them;
// - the example plugin of docs/memory.md, copied into HERMES_HOME/plugins/memory/recall and
//   selected, replaces the builtin provider (its block, its tool, its prefetch), and its cli.ts
//   gives `hermes recall facts`;
// - an unknown memory.provider names the registered ones and the turn still answers;
// - `hermes memory show|clear`.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChatMessage, safeIdentityName } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { fileBlocks } from './helpers/doc-blocks.js';
import { runHermes, tempHome } from './helpers/run-hermes.js';
import { useFakeOpenAI } from './helpers/use-fake-openai.js';

const DOC = readFileSync(fileURLToPath(new URL('../docs/memory.md', import.meta.url)), 'utf8');
const openai = useFakeOpenAI();

const chatRequests = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const body = (i: number) =>
  chatRequests()[i]?.body as { messages: ChatMessage[]; tools?: { function: { name: string } }[] };
const systemOf = (i: number) => String(body(i).messages[0]?.content);
const toolNames = (i: number) => (body(i).tools ?? []).map((t) => t.function.name);

const env = (home: string) => ({
  HERMES_HOME: home,
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'test-model',
});

describe('memory (acceptance)', () => {
  it('builtin: a memory tool write survives a restart and is in the next session’s system prompt', async () => {
    const home = tempHome();
    openai.server.script(
      {
        toolCalls: [
          { name: 'memory', arguments: { action: 'add', target: 'user', content: 'Prefers tea over coffee' } },
        ],
      },
      { text: 'Noted.' },
    );
    const first = await runHermes(['-z', 'remember that I prefer tea'], { env: env(home) });
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe('Noted.\n');
    expect(toolNames(0)).toEqual(expect.arrayContaining(['memory', 'session_search']));
    const toolResult = body(1).messages.find((m) => m.role === 'tool');
    expect(JSON.parse(String(toolResult?.content))).toMatchObject({ success: true, target: 'user' });
    // the session that wrote it keeps the prompt it began with
    expect(systemOf(1)).toBe(systemOf(0));
    expect(systemOf(0)).not.toContain('Prefers tea');
    expect(readFileSync(join(home, 'memories', 'users', `${safeIdentityName('cli:local')}.md`), 'utf8')).toBe(
      'Prefers tea over coffee\n',
    );

    openai.server.script({ text: 'Tea, then.' });
    const second = await runHermes(['-z', 'what should I drink?'], { env: env(home) });
    expect(second.stdout).toBe('Tea, then.\n');
    expect(systemOf(2)).toContain('## About the user (their profile): 23/1375 chars\nPrefers tea over coffee');

    const shown = await runHermes(['memory', 'show', '--target', 'user'], { env: env(home) });
    expect(shown.stdout).toContain(
      `${safeIdentityName('cli:local')}.md: 1 entry, 23/1375 chars\n  Prefers tea over coffee`,
    );
    const refused = await runHermes(['memory', 'clear'], { env: env(home) });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('pass --yes');
    const no = await runHermes(['memory', 'clear'], { env: env(home), input: 'n\n' });
    expect(no.stdout).toContain('nothing cleared');
    const cleared = await runHermes(['memory', 'clear', '--yes'], { env: env(home) });
    expect(cleared.code).toBe(0);
    expect(readFileSync(join(home, 'memories', 'users', `${safeIdentityName('cli:local')}.md`), 'utf8')).toBe('');
  });

  it('the plugin of docs/memory.md, selected, replaces the builtin provider', async () => {
    const blocks = fileBlocks(DOC);
    expect([...blocks.keys()].sort()).toEqual(['cli.ts', 'index.ts', 'plugin.yaml']);
    const home = tempHome();
    const dir = join(home, 'plugins', 'memory', 'recall');
    mkdirSync(dir, { recursive: true });
    for (const [file, text] of blocks) writeFileSync(join(dir, file), text);
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [memory/recall]\nmemory:\n  provider: recall\n');
    // the documented approval (no TTY here: --yes)
    const approved = await runHermes(['trust', 'approve', 'plugin:memory/recall', '--yes'], { env: env(home) });
    expect(approved.code, approved.stderr).toBe(0);
    // builtin notes that must not show while another provider is selected
    mkdirSync(join(home, 'memories'));
    writeFileSync(join(home, 'memories', 'MEMORY.md'), 'builtin note\n');

    openai.server.script(
      { toolCalls: [{ name: 'remember', arguments: { fact: 'The staging server is called kestrel' } }] },
      { text: 'Saved.' },
    );
    const first = await runHermes(['-z', 'remember the staging server name'], { env: env(home) });
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe('Saved.\n');
    expect(toolNames(0)).toContain('remember');
    expect(toolNames(0)).not.toContain('memory');

    openai.server.script({ text: 'It is kestrel.' });
    const second = await runHermes(['-z', 'what is the staging server called?'], { env: env(home) });
    expect(second.stdout).toBe('It is kestrel.\n');
    const system = systemOf(2);
    expect(system).toContain('# Facts you were asked to remember\n- The staging server is called kestrel');
    expect(system).not.toContain('builtin note');
    // prefetch: this request's user message carries the related fact; sync counted both turns
    expect(body(2).messages.at(-1)?.content).toBe(
      'what is the staging server called?\n\nRemembered facts about this: The staging server is called kestrel',
    );
    // kept in its data folder, outside its code (whose content the consent is bound to)
    expect(JSON.parse(readFileSync(join(home, 'plugin-data', 'memory', 'recall', 'notes.json'), 'utf8'))).toEqual({
      facts: ['The staging server is called kestrel'],
      turns: 2,
    });
    // its own command (cli.ts), reading the same data folder, listed by the help while it is active
    const facts = await runHermes(['recall', 'facts'], { env: env(home) });
    expect(facts.stderr).toBe('');
    expect(facts.stdout).toBe('- The staging server is called kestrel\n');
    expect((await runHermes(['--help'], { env: env(home) })).stdout).toMatch(
      /^ {2}recall +Remembers facts in a JSON file/m,
    );
  });

  it('an unknown memory.provider is an error naming the registered ones; the turn still answers', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'memory:\n  provider: honcho\n');
    openai.server.script({ text: 'Still here.' });
    const r = await runHermes(['-z', 'hi'], { env: env(home) });
    expect(r.stdout).toBe('Still here.\n');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('memory.provider "honcho" is not registered (registered: builtin)');
    expect(existsSync(join(home, 'memories'))).toBe(false);
  });
});
