import { describe, expect, it } from 'vitest';
import { parseSkillFile } from '../../src/index.js';

const F = '/h/skills/standup/SKILL.md';

describe('parseSkillFile', () => {
  it('reads name, description and the trimmed body', () => {
    const parsed = parseSkillFile(
      '---\nname: standup\ndescription: Write   the standup\n---\n\nDo it.\n',
      F,
      'standup',
    );
    expect(parsed).toEqual({
      ok: true,
      skill: { name: 'standup', description: 'Write the standup', body: 'Do it.', warnings: [] },
    });
  });

  it('accepts CRLF line ends and a byte order mark', () => {
    const parsed = parseSkillFile('\uFEFF---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n', F);
    expect(parsed).toMatchObject({ ok: true, skill: { name: 'a', description: 'b', body: 'body' } });
  });

  it('warns about unknown keys with their line, and still loads', () => {
    const parsed = parseSkillFile('---\nname: standup\ndescription: d\nversion: 2\n---\nbody', F);
    expect(parsed).toMatchObject({
      ok: true,
      skill: { warnings: [`${F}:4: unknown key "version" ignored (known: name, description)`] },
    });
  });

  it.each([
    ['no front matter', '# Standup\nbody', `${F}:1: no front matter`],
    ['unclosed front matter', '---\nname: standup\ndescription: d\n', `${F}:1: the front matter is not closed`],
    ['bad YAML', '---\nname: standup\ndescription: [oops\n---\nbody', `${F}:3: the front matter is not valid YAML`],
    ['not a mapping', '---\n- a\n---\nbody', `${F}:2: the front matter must be a mapping`],
    [
      'no name',
      '---\ndescription: d\n---\nbody',
      `${F}:2: the front matter has no 'name' key (add a line such as 'name: standup')`,
    ],
    ['bad name', '---\ndescription: d\nname: Stand Up\n---\nbody', `${F}:3: bad name "Stand Up"`],
    ['path in the name', '---\nname: ../etc\ndescription: d\n---\nbody', `${F}:2: bad name "../etc"`],
    [
      'name not its folder',
      '---\nname: other\ndescription: d\n---\nbody',
      `${F}:2: name "other" differs from its folder "standup"`,
    ],
    [
      'no description',
      '---\nname: standup\n---\nbody',
      `${F}:2: the front matter has no 'description' key (add a line such as 'description: What the skill does')`,
    ],
    [
      'empty description',
      '---\nname: standup\ndescription: ""\n---\nbody',
      `${F}:3: description must be a non-empty string`,
    ],
    ['no body', '---\nname: standup\ndescription: d\n---\n\n', `${F}:1: no instructions`],
  ])('refuses %s, naming file and line', (_what, text, start) => {
    const parsed = parseSkillFile(text, F, 'standup');
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.error).toMatch(new RegExp(`^${start.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    // A refusal is a whole sentence: it never ends in a dangling colon.
    expect(parsed.ok ? '' : parsed.error.trimEnd()).not.toMatch(/:$/);
  });
});
