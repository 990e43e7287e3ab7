/** The `skills` toolset: `skills_list` and `skill_view` over the process's skill catalog. */
import type { ToolDefinition } from '@hermes/protocol';
import { SKILL_MAX_CHARS, type SkillCatalog } from './skill-catalog.js';
import { listSkillFiles, readSkillFile } from './skill-files.js';

const listOf = (catalog: SkillCatalog) =>
  catalog.skills.map((s) => ({ name: s.name, description: s.description, source: s.source }));

/** `skill_view {name, file?}`: a skill's instructions and its files, or one file of its folder. */
export function createSkillViewTool(catalog: () => SkillCatalog): ToolDefinition {
  return {
    name: 'skill_view',
    toolset: 'skills',
    owner: 'builtin',
    emoji: '📘',
    checkFn: () => catalog().skills.length > 0,
    schema: {
      name: 'skill_view',
      description:
        'Read a skill: instructions for a task. Call with {"name": "<skill>"} for its instructions and the list of files in its folder; add "file" (a path relative to the skill\'s folder) to read one of them. Without a name: the list of skills.',
      parameters: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'the skill, e.g. standup or calculator:calculator' },
          file: { type: 'string', description: "a file in the skill's folder, relative to it (e.g. template.md)" },
        },
      },
    },
    handler: async (args) => {
      const skills = catalog();
      const name = typeof args.name === 'string' ? args.name.trim().replace(/^\//, '') : '';
      if (!name) return { skills: listOf(skills) };
      const skill = skills.find(name);
      if (!skill) {
        const known = skills.skills.map((s) => s.name).join(', ') || 'none';
        return { error: `Unknown skill "${name}". Available: ${known}` };
      }
      if (typeof args.file === 'string' && args.file.trim() !== '') {
        if (skill.dir === null) return { error: `skill "${skill.name}" has no folder: it has no files` };
        const read = await readSkillFile(skill.dir, args.file.trim(), SKILL_MAX_CHARS);
        return 'error' in read ? read : { name: skill.name, file: args.file.trim(), ...read };
      }
      const content = (await skills.instructions(skill)).slice(0, SKILL_MAX_CHARS);
      const files = skill.dir !== null ? await listSkillFiles(skill.dir) : [];
      return {
        name: skill.name,
        description: skill.description,
        content,
        ...(files.length > 0 ? { files } : {}),
      };
    },
  };
}

/** `skills_list`: every skill with its description and where it comes from (user folder or plugin). */
export function createSkillsListTool(catalog: () => SkillCatalog): ToolDefinition {
  return {
    name: 'skills_list',
    toolset: 'skills',
    owner: 'builtin',
    emoji: '📚',
    checkFn: () => catalog().skills.length > 0,
    schema: {
      name: 'skills_list',
      description: 'List the skills (instructions for tasks) with their descriptions; read one with skill_view.',
      parameters: { type: 'object', properties: {} },
    },
    handler: async () => ({ skills: listOf(catalog()) }),
  };
}
