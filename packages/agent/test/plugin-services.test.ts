import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HookBus } from '@hermes/plugins';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../../../test/helpers/use-fake-openai.js';
import { createPluginLlm, createSkillViewTool, SkillCatalog } from '../src/index.js';
import { client } from './helpers.js';

const openai = useFakeOpenAI();

describe('ctx.llm', () => {
  it('complete: a one-shot on the configured model', async () => {
    const llm = createPluginLlm(client(openai.server.url, new HookBus()), 'user-model', 'demo');
    openai.server.script({ text: 'a haiku' });
    expect(await llm.complete('write a haiku', { system: 'be brief', maxTokens: 50 })).toBe('a haiku');
    expect(openai.server.requests[0]?.body).toMatchObject({
      model: 'user-model',
      max_tokens: 50,
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'write a haiku' },
      ],
    });
  });

  it('completeStructured: validates the JSON answer against the schema', async () => {
    const llm = createPluginLlm(client(openai.server.url, new HookBus()), 'm', 'demo');
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, population: { type: 'integer' } },
      required: ['city', 'population'],
    };
    openai.server.script({ text: '```json\n{"city": "Paris", "population": 2100000}\n```' });
    expect(await llm.completeStructured('largest French city?', schema)).toEqual({
      city: 'Paris',
      population: 2100000,
    });
    const system = (openai.server.requests[0]?.body as { messages: { content: string }[] }).messages[0]?.content ?? '';
    expect(system).toContain('"required":["city","population"]');
    openai.server.script({ text: '{"city": "Paris"}' });
    await expect(llm.completeStructured('again', schema)).rejects.toThrow(/does not match the schema: .*population/);
    openai.server.script({ text: 'no json here' });
    await expect(llm.completeStructured('again', schema)).rejects.toThrow(/not JSON/);
  });
});

describe('skill_view', () => {
  it('lists plugin skills, reads one by id from its file, and is hidden while there are none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skills-'));
    writeFileSync(join(dir, 'SKILL.md'), '# Calculator\nUse calculate for math.');
    let catalog = new SkillCatalog();
    const tool = createSkillViewTool(() => catalog);
    expect(await tool.checkFn?.()).toBe(false);
    catalog = new SkillCatalog({
      plugins: [
        {
          id: 'calculator:calculator',
          description: 'math',
          path: join(dir, 'SKILL.md'),
          content: null,
          plugin: 'calc',
        },
      ],
    });
    expect(await tool.checkFn?.()).toBe(true);
    expect(await tool.handler({}, {} as never)).toEqual({
      skills: [{ name: 'calculator:calculator', description: 'math', source: 'plugin' }],
    });
    expect(await tool.handler({ name: 'calculator:calculator' }, {} as never)).toMatchObject({
      content: '# Calculator\nUse calculate for math.',
    });
    expect(await tool.handler({ name: 'nope' }, {} as never)).toEqual({
      error: 'Unknown skill "nope". Available: calculator:calculator',
    });
  });
});
