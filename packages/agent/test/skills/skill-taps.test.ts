import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTapSkills, loadTapsDir, SkillCatalog, skillCommands } from '../../src/index.js';

function write(root: string, path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}
const skill = (name: string, body = `Do ${name}.`) =>
  `---\nname: ${name}\ndescription: the ${name} skill\n---\n${body}\n`;
const tmp = () => mkdtempSync(join(tmpdir(), 'hermes-taps-'));

describe('tap skills', () => {
  it('reads skills/ when the tap has it, one category level deep, named <tap>:<name>', () => {
    const tap = tmp();
    write(tap, 'skills/standup/SKILL.md', skill('standup'));
    write(tap, 'skills/writing/review/SKILL.md', skill('review'));
    write(tap, 'skills/writing/notes.md', 'not a skill');
    write(tap, 'standalone/SKILL.md', skill('standalone')); // outside skills/: not read
    write(tap, 'README.md', '# tap');
    const loaded = loadTapSkills('team', tap);
    expect(loaded.skills.map((s) => [s.name, s.source, s.tap])).toEqual([
      ['team:standup', 'tap', 'team'],
      ['team:review', 'tap', 'team'],
    ]);
    expect(loaded.broken).toEqual([]);
  });

  it('reads the root without skills/; folders without SKILL.md are passed over; bad and duplicate ones are broken', () => {
    const tap = tmp();
    write(tap, 'standup/SKILL.md', skill('standup'));
    write(tap, 'docs/index.md', 'docs');
    write(tap, '.github/workflows/x.yml', 'x');
    write(tap, 'bad/SKILL.md', skill('other-name'));
    write(tap, 'more/standup/SKILL.md', skill('standup'));
    const loaded = loadTapSkills('t', tap);
    expect(loaded.skills.map((s) => s.name)).toEqual(['t:standup']);
    expect(loaded.broken.map((b) => [b.name, b.tap])).toEqual([
      ['t:bad', 't'],
      ['t:standup', 't'],
    ]);
    expect(loaded.broken[1]?.error).toContain('a second skill named "standup" in tap t');
  });

  it('loadTapsDir reads every tap and leaves out the ones not included (not approved)', () => {
    const taps = tmp();
    write(taps, 'a/skills/one/SKILL.md', skill('one'));
    write(taps, 'b/two/SKILL.md', skill('two'));
    expect(loadTapsDir(taps).skills.map((s) => s.name)).toEqual(['a:one', 'b:two']);
    expect(loadTapsDir(taps, (t) => t !== 'a').skills.map((s) => s.name)).toEqual(['b:two']);
    expect(loadTapsDir(join(taps, 'absent')).skills).toEqual([]);
  });

  it('the catalog finds a tap skill by its short name when unambiguous; the user wins it; a plugin skill of the same full name wins', async () => {
    const taps = tmp();
    write(taps, 'team/standup/SKILL.md', skill('standup', 'Team standup.'));
    write(taps, 'calculator/calculator/SKILL.md', skill('calculator'));
    const catalog = new SkillCatalog({
      plugins: [{ id: 'calculator:calculator', description: 'calc', path: null, content: 'x', plugin: 'calculator' }],
      taps: loadTapsDir(taps),
    });
    expect(catalog.skills.map((s) => `${s.name}/${s.source}`)).toEqual([
      'calculator:calculator/plugin',
      'team:standup/tap',
    ]);
    expect(catalog.warnings.join('\n')).toContain(
      "tap skill calculator:calculator left out: a plugin's skill has that name",
    );
    const found = catalog.find('standup');
    expect(found?.name).toBe('team:standup');
    expect(found && (await catalog.instructions(found))).toBe('Team standup.');
    expect(catalog.index()).toContain('- team:standup: the standup skill');
    const commands = skillCommands(catalog, () => false);
    expect(await commands.message('standup', 'today')).toContain('Team standup.');
    const withUser = new SkillCatalog({
      user: {
        skills: [{ name: 'standup', description: 'mine', source: 'user', dir: null, path: null, body: 'Mine.' }],
        broken: [],
        warnings: [],
      },
      taps: loadTapsDir(taps),
    });
    expect(withUser.find('standup')?.source).toBe('user');
    expect(withUser.find('team:standup')?.source).toBe('tap');
    const off = new SkillCatalog({ taps: loadTapsDir(taps), disabled: ['standup'] });
    expect(off.disabled.map((s) => s.name)).toEqual(['team:standup']);
  });
});
