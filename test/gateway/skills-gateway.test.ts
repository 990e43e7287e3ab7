// Skill commands in the gateway's pipeline: `/name text` runs a turn on the skill's instructions
// and the text (stored in the transcript like a message); built-in and plugin commands of the same
// name win; /help lists the skills; the index is in the system prompt of every turn.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSkillViewTool, loadSkillsDir, SkillCatalog, skillCommands } from '@hermes/agent';
import { BUILTIN_COMMANDS } from '@hermes/gateway';
import type { ChatMessage } from '@hermes/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { type Harness, startHarness } from './harness.js';

const openai = useFakeOpenAI();
let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

const chat = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const messagesOf = (i: number) => (chat()[i]?.body as { messages: ChatMessage[] }).messages;

function catalog(): SkillCatalog {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-gw-skills-'));
  for (const [name, body] of [
    ['standup', 'Write Yesterday, Today, Blockers.'],
    ['status', 'never a command: /status is built in'],
    ['deploy', 'never a command: a plugin has /deploy'],
  ]) {
    mkdirSync(join(dir, name ?? ''));
    writeFileSync(
      join(dir, name ?? '', 'SKILL.md'),
      `---\nname: ${name}\ndescription: the ${name} skill\n---\n${body}\n`,
    );
  }
  return new SkillCatalog({ user: loadSkillsDir(dir) });
}

describe('skill commands in the gateway', () => {
  it('/standup runs a turn carrying the instructions and the text; built-in and plugin commands win', async () => {
    const skills = catalog();
    const pluginCommands = new Map([['deploy', { description: 'deploy it', handler: () => 'deployed by the plugin' }]]);
    const taken = (name: string) => name in BUILTIN_COMMANDS || pluginCommands.has(name);
    h = await startHarness(openai.server, {
      skills: skillCommands(skills, taken),
      pluginCommands,
      turn: { skillsIndex: skills.index() },
    });
    h.tools.register(createSkillViewTool(() => skills)); // the index goes with skill_view
    openai.server.script({ text: 'Yesterday: fixed CI.' }, { text: 'second' });
    await h.platform.inject('/standup fixed CI yesterday');
    await h.gateway.idle();
    expect(h.platform.sent.map((m) => m.text)).toEqual(['Yesterday: fixed CI.']);
    const user = String(messagesOf(0).at(-1)?.content);
    expect(user).toContain('The user invoked the skill /standup (the standup skill)');
    expect(user).toContain('<skill-instructions>\nWrite Yesterday, Today, Blockers.\n</skill-instructions>');
    expect(user).toContain("The user's text:\nfixed CI yesterday");
    expect(String(messagesOf(0)[0]?.content)).toContain('- standup: the standup skill');

    await h.platform.inject('/deploy');
    await h.gateway.idle();
    expect(h.platform.sent.at(-1)?.text).toBe('deployed by the plugin');
    const before = h.platform.sent.length;
    await h.platform.inject('/help');
    await h.gateway.idle();
    const help = h.platform.sent
      .slice(before)
      .map((m) => m.text)
      .join('\n');
    expect(help).toContain('Skills (/name then your text):\n/standup · the standup skill');
    expect(help).not.toContain('the status skill');
    expect(help).not.toContain('the deploy skill');
    await h.platform.inject('/status');
    await h.gateway.idle();
    expect(h.platform.sent.at(-1)?.text).toMatch(/^Session: /);
    await h.platform.inject('/nosuchskill hi');
    await h.gateway.idle();
    expect(h.platform.sent.at(-1)?.text).toBe('Unknown command /nosuchskill. Send /help for the list.');
    // only /standup reached the model; its message is the session's stored user message
    expect(chat()).toHaveLength(1);
    await h.platform.inject('and today?');
    await h.gateway.idle();
    expect(messagesOf(1)[0]?.content).toBe(messagesOf(0)[0]?.content);
    expect(String(messagesOf(1).find((m) => m.role === 'user')?.content)).toContain('<skill-instructions>');
  });

  it('gateway.channel_skills: every turn of that chat carries the skill, after its channel prompt', async () => {
    const skills = catalog();
    h = await startHarness(openai.server, {
      skills: skillCommands(skills, () => false),
      settings: {
        channelPrompts: { 'memory:c1': 'You help the team.' },
        channelSkills: { 'memory:c1': ['standup', 'nosuch'] },
      },
    });
    openai.server.script({ text: 'one' }, { text: 'two' });
    await h.platform.inject('how do I write mine?');
    await h.gateway.idle();
    await h.platform.inject('hello', { chatId: 'c2' });
    await h.gateway.idle();
    const system = (i: number) => String(messagesOf(i)[0]?.content);
    expect(system(0)).toContain(
      'You help the team.\n\nSkill standup (the standup skill) applies to this chat. Follow its instructions:\n<skill-instructions>\nWrite Yesterday, Today, Blockers.\n</skill-instructions>',
    );
    // the user's words stay theirs; another chat gets neither
    expect(messagesOf(0).at(-1)?.content).toBe('how do I write mine?');
    expect(system(1)).not.toContain('You help the team.');
    expect(system(1)).not.toContain('<skill-instructions>');
  });
});
