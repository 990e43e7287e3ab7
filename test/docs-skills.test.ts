// Issue 20's skills acceptance, through the built CLI against the fake model and the fake Telegram
// Bot API: the example skill of docs/skills.md, copied from the doc into a HERMES_HOME, is
// - listed by `hermes skills list` (a broken skill beside it is listed with its error),
// - in the system prompt's index and viewable: skill_view called by the model, its content (and a
//   file of its folder) reaches the model,
// - invocable as /standup through the gateway (Telegram) and in `hermes chat`: the model's request
//   carries the skill's instructions and the user's text; /help lists it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChatMessage } from '@hermes/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from './fakes/telegram-server.js';
import { runHermes, tempHome, trustHome } from './helpers/run-hermes.js';
import { spawnGateway } from './helpers/spawn-gateway.js';
import { useFakeOpenAI } from './helpers/use-fake-openai.js';
import { waitFor } from './helpers/wait-for.js';

const DOC = readFileSync(fileURLToPath(new URL('../docs/skills.md', import.meta.url)), 'utf8');
const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken1234';
const openai = useFakeOpenAI();
let tg: FakeTelegram;
beforeAll(async () => {
  tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
});
afterAll(async () => {
  await tg.close();
});

/** Fenced blocks whose info string names a file (```markdown file=standup/SKILL.md). */
function fileBlocks(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  const fence = /^```\w* file=(\S+)\n([\s\S]*?)^```[ \t]*$/gm;
  for (let m = fence.exec(markdown); m !== null; m = fence.exec(markdown)) out.set(m[1] ?? '', m[2] ?? '');
  return out;
}

/** A HERMES_HOME with the doc's skill, and a broken one. */
function homeWithSkills(): string {
  const home = tempHome();
  const files = fileBlocks(DOC);
  expect([...files.keys()]).toEqual(['standup/SKILL.md', 'standup/template.md']);
  for (const [path, text] of files) {
    mkdirSync(dirname(join(home, 'skills', path)), { recursive: true });
    writeFileSync(join(home, 'skills', path), text);
  }
  mkdirSync(join(home, 'skills', 'broken'));
  writeFileSync(join(home, 'skills', 'broken', 'SKILL.md'), '---\nname: Broken Skill\ndescription: x\n---\nbody\n');
  // the operator's consent for the skill folders (docs/skills.md says to run it)
  trustHome(home);
  return home;
}

const chatRequests = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const body = (i: number) => chatRequests()[i]?.body as { messages: ChatMessage[] };
const lastUser = (i: number) => String(body(i).messages.findLast((m) => m.role === 'user')?.content);
const env = (home: string, extra: Record<string, string> = {}) => ({
  HERMES_HOME: home,
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'test-model',
  ...extra,
});

describe('skills (acceptance, docs/skills.md)', () => {
  it('hermes skills list shows the doc’s skill from the user folder, and a broken one with file and line', async () => {
    const home = homeWithSkills();
    const listed = await runHermes(['skills', 'list', '--json'], { env: env(home) });
    expect(listed.code).toBe(0);
    const entries = JSON.parse(listed.stdout) as { name: string; source: string; state: string; error: string }[];
    expect(entries).toEqual([
      expect.objectContaining({
        name: 'standup',
        description: 'Write my daily standup from what I tell you I did',
        source: 'user',
        state: 'enabled',
        path: join(home, 'skills', 'standup', 'SKILL.md'),
      }),
      expect.objectContaining({ name: 'broken', state: 'broken' }),
    ]);
    expect(entries[1]?.error).toBe(
      `${join(home, 'skills', 'broken', 'SKILL.md')}:2: bad name "Broken Skill": use lowercase letters, digits, - and _ (up to 64, starting with a letter or digit)`,
    );
    const text = await runHermes(['skills', 'list'], { env: env(home) });
    expect(text.stdout).toContain('✓ standup  (user)  Write my daily standup from what I tell you I did\n');
    expect(text.stdout).toContain('✗ broken  (user, broken)\n');
  });

  it('hermes skills list shows a plugin’s bundled skill with its plugin; skills.disabled marks one', async () => {
    const home = homeWithSkills();
    writeFileSync(join(home, 'config.yaml'), 'plugins:\n  enabled: [calculator]\nskills:\n  disabled: [standup]\n');
    const listed = await runHermes(['skills', 'list', '--json'], { env: env(home) });
    const entries = JSON.parse(listed.stdout) as { name: string; source: string; plugin: string; state: string }[];
    expect(entries.map((e) => [e.name, e.source, e.state])).toEqual([
      ['calculator:calculator', 'plugin', 'enabled'],
      ['standup', 'user', 'disabled'],
      ['broken', 'user', 'broken'],
    ]);
    expect(entries[0]?.plugin).toContain('calculator');
  });

  it('the model sees the index, calls skill_view, and the skill and its file reach the model', async () => {
    const home = homeWithSkills();
    const before = chatRequests().length;
    openai.server.script(
      { toolCalls: [{ name: 'skill_view', arguments: { name: 'standup' } }] },
      { toolCalls: [{ name: 'skill_view', arguments: { name: 'standup', file: 'template.md' } }] },
      { text: 'Here is your standup.' },
    );
    const r = await runHermes(['-z', 'write my standup: fixed the build'], { env: env(home) });
    expect(r.stdout).toBe('Here is your standup.\n');
    const system = String(body(before).messages[0]?.content);
    expect(system).toContain('## Skills\n');
    expect(system).toContain('- standup: Write my daily standup from what I tell you I did');
    expect(system).not.toContain('broken');
    const tools = (body(before) as { tools?: { function: { name: string } }[] }).tools ?? [];
    expect(tools.map((t) => t.function.name)).toEqual(expect.arrayContaining(['skills_list', 'skill_view']));
    const viewed = JSON.parse(String(body(before + 1).messages.findLast((m) => m.role === 'tool')?.content));
    expect(viewed).toMatchObject({ name: 'standup', files: ['template.md'] });
    expect(viewed.content).toContain('Keep each section to at most three bullet points');
    expect(viewed.content).not.toContain('description:');
    const file = JSON.parse(String(body(before + 2).messages.findLast((m) => m.role === 'tool')?.content));
    expect(file.content).toContain('**Blockers**');
    // the prompt stays the same across the turn's requests
    expect(body(before + 2).messages[0]?.content).toBe(system);
  });

  it('/standup through the gateway (Telegram): the request carries the instructions and the text; /help lists it', async () => {
    const home = homeWithSkills();
    tg.reset();
    const gw = await spawnGateway(
      env(home, { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: tg.apiRoot, TELEGRAM_ALLOWED_USERS: '42' }),
    );
    try {
      await waitFor(() => tg.pendingPolls() > 0);
      const before = chatRequests().length;
      openai.server.script({ text: '**Yesterday** fixed the login bug' });
      tg.pushMessage({ chatId: 42, userId: 42, text: '/standup yesterday I fixed the login bug' });
      await waitFor(() => tg.sent.length > 0);
      expect(tg.sent[0]?.text).toContain('fixed the login bug');
      const message = lastUser(before);
      expect(message).toContain('The user invoked the skill /standup');
      expect(message).toContain('1. Read the layout with skill_view {"name": "standup", "file": "template.md"}');
      expect(message).toContain("The user's text:\nyesterday I fixed the login bug");
      tg.pushMessage({ chatId: 42, userId: 42, text: '/help' });
      await waitFor(() => tg.sent.length > 1);
      expect(tg.sent[1]?.text).toContain('/standup · Write my daily standup from what I tell you I did');
      expect(chatRequests().length).toBe(before + 1);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });

  it('/standup in hermes chat runs a turn on the skill; built-in names win over a skill', async () => {
    const home = homeWithSkills();
    mkdirSync(join(home, 'skills', 'help'));
    writeFileSync(join(home, 'skills', 'help', 'SKILL.md'), '---\nname: help\ndescription: shadowed\n---\nnever\n');
    const before = chatRequests().length;
    openai.server.script({ text: 'standup written' });
    const r = await runHermes(['chat'], { env: env(home), input: '/help\n/standup today: release notes\n/exit\n' });
    expect(r.stdout).toContain('Skills (/name then your text):\n  /standup  Write my daily standup');
    expect(r.stdout).not.toContain('/help  shadowed');
    expect(r.stdout).toContain('standup written');
    expect(chatRequests().length).toBe(before + 1);
    expect(lastUser(before)).toContain('<skill-instructions>\nWrite a standup update');
    expect(lastUser(before)).toContain("The user's text:\ntoday: release notes");
  });
});
