// The interactive `hermes plugins` (on a terminal): its Provider Plugins section, single-choice
// pickers for memory.provider and context.engine, written through the comment-keeping config
// writer; picking a plugin's provider enables the plugin (consent recorded at the terminal).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome, trustHome } from '../helpers/run-hermes.js';
import { numberOf, runOnTtyScripted } from '../helpers/run-on-tty.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();

const MAIN = 'Toggle or pick which number?';

function writePlugin(home: string, key: string, index: string): void {
  const dir = join(home, 'plugins', ...key.split('/'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), `name: ${key.split('/').at(-1)}\nversion: 1.0.0\n`);
  writeFileSync(join(dir, 'index.ts'), index);
}

/** A memory provider plugin that is not enabled, a context engine plugin that is (and approved). */
function homeWithProviders(): string {
  const home = tempHome();
  writePlugin(
    home,
    'memory/notebook',
    `export function register(ctx) {
  ctx.registerMemoryProvider({ name: 'notebook', systemPromptBlock: () => 'NOTEBOOK BLOCK' });
}\n`,
  );
  writePlugin(
    home,
    'context_engine/tidy',
    `export function register(ctx) {
  ctx.registerContextEngine({ name: 'tidy', compress: async () => null });
}\n`,
  );
  writeFileSync(join(home, 'config.yaml'), '# my settings\nplugins:\n  enabled: [context_engine/tidy] # the engine\n');
  trustHome(home);
  return home;
}

describe('interactive hermes plugins: Provider Plugins', () => {
  it('picks a memory provider and a context engine; config.yaml keeps its comments; the picks run', async () => {
    const home = homeWithProviders();
    const r = await runOnTtyScripted(['plugins'], { HERMES_HOME: home }, [
      { prompt: MAIN, answer: (out) => numberOf(out, /Memory Provider +▸ builtin$/) },
      { prompt: 'Which one? (Enter keeps builtin)', answer: (out) => numberOf(out, /\) notebook — /) },
      { prompt: MAIN, answer: (out) => numberOf(out, /Context Engine +▸ compressor$/) },
      { prompt: 'Which one? (Enter keeps compressor)', answer: (out) => numberOf(out, /\) tidy — /) },
      { prompt: MAIN, answer: 'q' },
    ]);
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout).toBe(0);
    // the section and the two pickers, as shown
    expect(r.stdout).toContain('Provider Plugins');
    expect(r.stdout).toMatch(/\(•\) builtin — built-in/);
    expect(r.stdout).toMatch(/\( \) notebook — plugin memory\/notebook \(not enabled\)/);
    expect(r.stdout).toMatch(/\( \) tidy — plugin context_engine\/tidy\n/);
    expect(r.stdout).toMatch(/Memory Provider +▸ notebook\n/);
    expect(r.stdout).toContain('memory.provider: builtin → notebook');
    expect(r.stdout).toContain('enabled memory/notebook (added to plugins.enabled)');
    expect(r.stdout).toContain('context.engine: compressor → tidy');

    const text = readFileSync(join(home, 'config.yaml'), 'utf8');
    expect(text).toContain('# my settings');
    expect(text).toContain('# the engine');
    expect(text).toMatch(/memory:\n {2}provider: notebook/);
    expect(text).toMatch(/context:\n {2}engine: tidy/);
    // picked at a terminal: the notebook plugin is approved, so a run loads it
    const trust = await runHermes(['trust', 'list'], { env: { HERMES_HOME: home } });
    expect(trust.stdout).toMatch(/plugin:memory\/notebook\s+approved/);
    openai.server.script({ text: 'picked' });
    const run = await runHermes(['-z', 'hi'], {
      env: { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'm' },
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('picked\n');
    const messages = (openai.server.requests.at(-1)?.body as { messages: ChatMessage[] }).messages;
    expect(String(messages[0]?.content)).toContain('NOTEBOOK BLOCK');
  });

  it('Enter keeps the choice; nothing picked, nothing written', async () => {
    const home = homeWithProviders();
    const before = readFileSync(join(home, 'config.yaml'), 'utf8');
    const r = await runOnTtyScripted(['plugins'], { HERMES_HOME: home }, [
      { prompt: MAIN, answer: (out) => numberOf(out, /Context Engine +▸ compressor$/) },
      { prompt: 'Which one? (Enter keeps compressor)', answer: '' },
      { prompt: MAIN, answer: '99' },
      { prompt: MAIN, answer: '' },
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('no plugin number 99');
    expect(r.stdout).toContain('no changes');
    expect(readFileSync(join(home, 'config.yaml'), 'utf8')).toBe(before);
  });
});
