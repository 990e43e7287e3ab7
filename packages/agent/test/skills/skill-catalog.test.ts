import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildSystemPrompt,
  createSkillsListTool,
  createSkillViewTool,
  loadSkillsDir,
  SKILL_INDEX_MAX,
  SkillCatalog,
  skillCommands,
} from '../../src/index.js';

function skillsHome(): string {
  return mkdtempSync(join(tmpdir(), 'hermes-skills-'));
}

function addSkill(dir: string, name: string, text?: string, extra: Record<string, string> = {}): string {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'SKILL.md'),
    text ?? `---\nname: ${name}\ndescription: the ${name} skill\n---\nDo ${name}.\n`,
  );
  for (const [file, content] of Object.entries(extra)) {
    mkdirSync(join(folder, file, '..'), { recursive: true });
    writeFileSync(join(folder, file), content);
  }
  return folder;
}

const noCall = {} as never;

describe('loadSkillsDir', () => {
  it('loads each folder with a SKILL.md, skips and reports the bad ones, ignores files and hidden folders', () => {
    const dir = skillsHome();
    addSkill(dir, 'standup');
    addSkill(dir, 'broken', '# no front matter\n');
    mkdirSync(join(dir, 'empty'));
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, 'README.md'), 'notes');
    const loaded = loadSkillsDir(dir);
    expect(loaded.skills.map((s) => [s.name, s.description, s.source, s.body])).toEqual([
      ['standup', 'the standup skill', 'user', 'Do standup.'],
    ]);
    expect(loaded.broken).toEqual([
      { name: 'broken', path: join(dir, 'broken', 'SKILL.md'), error: expect.stringContaining(':1: no front matter') },
      {
        name: 'empty',
        path: join(dir, 'empty', 'SKILL.md'),
        error: `${join(dir, 'empty', 'SKILL.md')}: missing (each skill folder needs a SKILL.md)`,
      },
    ]);
  });

  it('an absent folder is no skills; an unreadable SKILL.md is reported, not thrown', () => {
    expect(loadSkillsDir(join(skillsHome(), 'nope'))).toEqual({ skills: [], broken: [], warnings: [] });
    const dir = skillsHome();
    addSkill(dir, 'locked');
    chmodSync(join(dir, 'locked', 'SKILL.md'), 0o000);
    const loaded = loadSkillsDir(dir);
    // root reads anything: then it simply loads
    if (process.getuid?.() === 0) expect(loaded.skills).toHaveLength(1);
    else expect(loaded.broken[0]?.error).toMatch(/SKILL\.md: unreadable: .*EACCES/);
  });
});

describe('SkillCatalog', () => {
  const plugin = (id: string) => ({
    id,
    description: `plugin ${id}`,
    path: null,
    content: `inline ${id}`,
    plugin: 'p',
  });

  it('a user skill wins the short name over a plugin skill, which stays reachable by its full name', async () => {
    const dir = skillsHome();
    addSkill(dir, 'calculator');
    const catalog = new SkillCatalog({
      user: loadSkillsDir(dir),
      plugins: [plugin('calculator:calculator'), plugin('calc:units')],
    });
    expect(catalog.find('calculator')?.source).toBe('user');
    expect(catalog.find('calculator:calculator')?.source).toBe('plugin');
    expect(catalog.find('units')?.name).toBe('calc:units');
    const found = catalog.find('calc:units');
    expect(found && (await catalog.instructions(found))).toBe('inline calc:units');
  });

  it('an ambiguous plugin short name finds nothing; skills.disabled leaves skills out by full or short name', () => {
    const both = new SkillCatalog({ plugins: [plugin('a:x'), plugin('b:x')] });
    expect(both.find('x')).toBeUndefined();
    const off = new SkillCatalog({ plugins: [plugin('a:x'), plugin('b:y')], disabled: ['x'] });
    expect(off.skills.map((s) => s.name)).toEqual(['b:y']);
    expect(off.disabled.map((s) => s.name)).toEqual(['a:x']);
  });

  it('the index: one line per skill, descriptions cut, capped with a pointer to skills_list', () => {
    expect(new SkillCatalog().index()).toBe('');
    const many = Array.from({ length: SKILL_INDEX_MAX + 3 }, (_, i) => ({
      ...plugin(`p:s${String(i).padStart(2, '0')}`),
      description: 'd'.repeat(300),
    }));
    const index = new SkillCatalog({ plugins: many }).index();
    const lines = index.split('\n');
    expect(lines[0]).toBe('## Skills');
    expect(lines.filter((l) => l.startsWith('- p:'))).toHaveLength(SKILL_INDEX_MAX);
    expect(lines[2]).toBe(`- p:s00: ${'d'.repeat(99)}…`);
    expect(lines.at(-1)).toBe('- … and 3 more (skills_list lists them all)');
    // the same catalog gives the same bytes: the system prompt stays identical across turns
    const prompt = buildSystemPrompt({ platform: 'cli', skillsIndex: index });
    expect(prompt.endsWith(`\n\n${index}`)).toBe(true);
    expect(buildSystemPrompt({ platform: 'cli', skillsIndex: new SkillCatalog({ plugins: many }).index() })).toBe(
      prompt,
    );
  });
});

describe('skill_view and skills_list', () => {
  it('skill_view lists the folder’s files and reads one by a relative path', async () => {
    const dir = skillsHome();
    addSkill(dir, 'standup', undefined, { 'template.md': 'Yesterday:\nToday:', 'ref/notes.txt': 'n', '.hidden': 'h' });
    const catalog = new SkillCatalog({ user: loadSkillsDir(dir) });
    const view = createSkillViewTool(() => catalog);
    expect(await view.handler({ name: '/standup' }, noCall)).toEqual({
      name: 'standup',
      description: 'the standup skill',
      content: 'Do standup.',
      files: ['ref/notes.txt', 'template.md'],
    });
    expect(await view.handler({ name: 'standup', file: 'template.md' }, noCall)).toEqual({
      name: 'standup',
      file: 'template.md',
      content: 'Yesterday:\nToday:',
      truncated: false,
    });
    expect(await view.handler({ name: 'standup', file: 'nope.md' }, noCall)).toEqual({
      error: 'file "nope.md" does not exist in the skill\'s folder',
    });
    const list = createSkillsListTool(() => catalog);
    expect(await list.handler({}, noCall)).toEqual({
      skills: [{ name: 'standup', description: 'the standup skill', source: 'user' }],
    });
  });
});

describe('skillCommands', () => {
  it('makes the user message from the instructions and the text; a taken name is no skill command', async () => {
    const dir = skillsHome();
    addSkill(dir, 'standup');
    addSkill(dir, 'help');
    const shadowed: string[] = [];
    const commands = skillCommands(
      new SkillCatalog({ user: loadSkillsDir(dir) }),
      (name) => name === 'help',
      (s) => shadowed.push(s.name),
    );
    expect(shadowed).toEqual(['help']);
    expect(commands.list()).toEqual([{ name: 'standup', description: 'the standup skill' }]);
    expect(await commands.message('help', '')).toBeNull();
    expect(await commands.message('nope', '')).toBeNull();
    const message = await commands.message('standup', ' yesterday I fixed the build ');
    expect(message).toBe(
      [
        'The user invoked the skill /standup (the standup skill). Follow its instructions:',
        '',
        '<skill-instructions>',
        'Do standup.',
        '</skill-instructions>',
        '',
        "The user's text:\nyesterday I fixed the build",
      ].join('\n'),
    );
    expect(await commands.message('standup', '')).toContain('The user added no text.');
  });
});
