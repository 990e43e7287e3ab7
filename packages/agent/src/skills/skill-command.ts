/**
 * `/skill-name text` in a chat: a turn whose user message carries the skill's instructions and
 * the user's text. The same for the gateway's chats and `hermes chat`.
 */
import type { SkillCatalog } from './skill-catalog.js';
import type { SkillEntry } from './skill-loader.js';

export interface SkillCommands {
  /** the skills invocable as `/name` here (no built-in or plugin command of that name) */
  list(): readonly { name: string; description: string }[];
  /** the user message for `/name args`; null when `name` is no invocable skill */
  message(name: string, args: string): Promise<string | null>;
  /**
   * The instructions of the named skills for a channel's turns (gateway.channel_skills), each in
   * its `<skill-instructions>` block; a name no skill has is `missing`.
   */
  preload(names: readonly string[]): Promise<{ text: string; missing: string[] }>;
}

/** The user message of a skill command. */
export function skillCommandMessage(skill: SkillEntry, instructions: string, args: string): string {
  return [
    `The user invoked the skill /${skill.name} (${skill.description}). Follow its instructions:`,
    '',
    '<skill-instructions>',
    instructions,
    '</skill-instructions>',
    '',
    args.trim() === '' ? 'The user added no text.' : `The user's text:\n${args.trim()}`,
  ].join('\n');
}

/** The named skills' instructions as a channel's turns carry them. */
export async function preloadSkills(
  catalog: SkillCatalog,
  names: readonly string[],
): Promise<{ text: string; missing: string[] }> {
  const blocks: string[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const skill = catalog.find(name);
    if (!skill) {
      missing.push(name);
      continue;
    }
    blocks.push(
      `Skill ${skill.name} (${skill.description}) applies to this chat. Follow its instructions:\n<skill-instructions>\n${await catalog.instructions(skill)}\n</skill-instructions>`,
    );
  }
  return { text: blocks.join('\n\n'), missing };
}

/**
 * The skill commands of a surface: every skill of the catalog whose name is not `taken` (a
 * built-in or plugin command there). `onShadowed` is told once per skill left out.
 */
export function skillCommands(
  catalog: SkillCatalog,
  taken: (name: string) => boolean,
  onShadowed?: (skill: SkillEntry) => void,
): SkillCommands {
  const usable = catalog.skills.filter((s) => {
    if (!taken(s.name)) return true;
    onShadowed?.(s);
    return false;
  });
  return {
    list: () => usable.map((s) => ({ name: s.name, description: s.description })),
    async message(name, args) {
      if (taken(name)) return null;
      const skill = catalog.find(name);
      if (!skill || !usable.includes(skill)) return null;
      return skillCommandMessage(skill, await catalog.instructions(skill), args);
    },
    preload: (names) => preloadSkills(catalog, names),
  };
}
