/** The `skill_view` tool: lets the model read a skill (e.g. a plugin's `calculator:calculator`) by id. */
import { readFile } from 'node:fs/promises';
import type { ToolDefinition } from '@hermes/protocol';

export interface SkillSource {
  id: string;
  description: string;
  path: string | null;
  content: string | null;
}

export const SKILL_MAX_CHARS = 100_000;

/** Builds the tool over a live view of the registered skills; hidden while there are none. */
export function createSkillViewTool(skills: () => Iterable<SkillSource>): ToolDefinition {
  const list = () => [...skills()].sort((a, b) => a.id.localeCompare(b.id));
  return {
    name: 'skill_view',
    toolset: 'skills',
    owner: 'builtin',
    emoji: '📘',
    checkFn: () => list().length > 0,
    schema: {
      name: 'skill_view',
      description:
        'Read a skill: instructions for a task, shipped by plugins. Call with {"name": "<plugin>:<skill>"}; ' +
        'call with no name to list the available skills and their descriptions.',
      parameters: {
        type: 'object',
        properties: { name: { type: 'string', description: 'the skill id, e.g. calculator:calculator' } },
      },
    },
    handler: async (args) => {
      const all = list();
      const name = typeof args.name === 'string' ? args.name : '';
      if (!name) return { skills: all.map((s) => ({ name: s.id, description: s.description })) };
      const skill = all.find((s) => s.id === name || s.id.endsWith(`:${name}`));
      if (!skill) return { error: `Unknown skill "${name}". Available: ${all.map((s) => s.id).join(', ') || 'none'}` };
      const content = skill.content ?? (skill.path ? await readFile(skill.path, 'utf8') : '');
      return { name: skill.id, description: skill.description, content: content.slice(0, SKILL_MAX_CHARS) };
    },
  };
}
