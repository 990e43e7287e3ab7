// skill_view reads files of a skill's folder only: a path that leaves it (.., absolute, a NUL) or
// a link inside it that leads out (to a file or a folder) is refused, and nothing of the target
// reaches the model; a skill without a folder (a plugin's inline skill) has no files.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSkillViewTool, loadSkillsDir, SkillCatalog } from '@hermes/agent';
import { describe, expect, it } from 'vitest';

const noCall = {} as never;
const temp = () => mkdtempSync(join(tmpdir(), 'hermes-skill-sec-'));

function addSkill(dir: string, name: string, files: Record<string, string> = {}): string {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'SKILL.md'), `---\nname: ${name}\ndescription: d\n---\nbody\n`);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(folder, file), text);
  return folder;
}

describe('skill_view file confinement', () => {
  it('refuses .., absolute paths, NUL bytes and links leading out; reads what is inside', async () => {
    const dir = temp();
    const outsideDir = temp();
    const secret = join(outsideDir, 'secret.txt');
    writeFileSync(secret, 'SECRET');
    const folder = addSkill(dir, 'standup', { 'ok.md': 'fine' });
    addSkill(dir, 'other', { 'x.md': 'other skill' });
    symlinkSync(secret, join(folder, 'link.txt'));
    symlinkSync(outsideDir, join(folder, 'linkdir'));
    const view = createSkillViewTool(() => new SkillCatalog({ user: loadSkillsDir(dir) }));
    const read = async (file: string) => JSON.stringify(await view.handler({ name: 'standup', file }, noCall));
    for (const file of ['../other/x.md', '../../secret.txt', secret, 'sub/../../other/SKILL.md', '.', 'a\0b']) {
      expect(await read(file), file).toMatch(/outside the skill's folder: give a path relative to it/);
    }
    for (const file of ['link.txt', 'linkdir/secret.txt']) {
      const answer = await read(file);
      expect(answer, file).toContain("leads outside the skill's folder (a link): refused");
      expect(answer).not.toContain('SECRET');
    }
    expect(await read('ok.md')).toContain('"content":"fine"');
  });

  it('an unknown skill name is no path, and an inline plugin skill has no files', async () => {
    const catalog = new SkillCatalog({
      plugins: [{ id: 'p:inline', description: 'd', path: null, content: 'x', plugin: 'p' }],
    });
    const view = createSkillViewTool(() => catalog);
    expect(await view.handler({ name: '../../../etc/passwd' }, noCall)).toEqual({
      error: 'Unknown skill "../../../etc/passwd". Available: p:inline',
    });
    expect(await view.handler({ name: 'p:inline', file: 'SKILL.md' }, noCall)).toEqual({
      error: 'skill "p:inline" has no folder: it has no files',
    });
  });
});
