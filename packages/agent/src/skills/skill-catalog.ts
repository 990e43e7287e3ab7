/**
 * The skills of a process, fixed when it starts: the user's (HERMES_HOME/skills/), the plugins'
 * (`ctx.registerSkill`, namespaced `plugin:name`) and the taps' (`hermes skills tap add`,
 * namespaced `tap:name`), minus `skills.disabled`. Lookup by full name or, for a plugin or tap
 * skill, by its short name when no user skill and no other plugin or tap skill has it: the user's
 * skill wins a short name. A tap skill whose full name a plugin skill has is left out (warned).
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseSkillFile } from './skill-file.js';
import type { BrokenSkill, LoadedSkills, SkillEntry } from './skill-loader.js';

/** A plugin's registration (`PluginRegistries.skills` values). */
export interface PluginSkill {
  id: string;
  description: string;
  path: string | null;
  content: string | null;
  plugin: string;
}

export interface SkillCatalogOptions {
  user?: LoadedSkills;
  plugins?: Iterable<PluginSkill>;
  /** the taps' skills (skill-taps.ts), already named `tap:name` */
  taps?: LoadedSkills;
  /** skills.disabled: names (full or short) left out */
  disabled?: readonly string[];
}

/** The system prompt's index lists at most this many skills (the rest: skills_list). */
export const SKILL_INDEX_MAX = 40;
/** …each with its description cut to this many characters. */
export const SKILL_INDEX_DESCRIPTION_MAX = 100;
/** skill_view returns at most this many characters of instructions or of a file. */
export const SKILL_MAX_CHARS = 100_000;

const shortName = (name: string) => name.slice(name.indexOf(':') + 1);

export class SkillCatalog {
  /** the usable skills, user skills first, each group by name */
  readonly skills: readonly SkillEntry[];
  readonly broken: readonly BrokenSkill[];
  readonly warnings: readonly string[];
  /** skills left out by skills.disabled */
  readonly disabled: readonly SkillEntry[];

  constructor(options: SkillCatalogOptions = {}) {
    const user = options.user ?? { skills: [], broken: [], warnings: [] };
    const plugin: SkillEntry[] = [...(options.plugins ?? [])].map((s) => ({
      name: s.id,
      description: s.description,
      source: 'plugin',
      plugin: s.plugin,
      dir: s.path ? dirname(s.path) : null,
      path: s.path,
      body: s.path ? null : s.content,
    }));
    const taps = options.taps ?? { skills: [], broken: [], warnings: [] };
    const pluginNames = new Set(plugin.map((s) => s.name));
    const clashes = taps.skills.filter((s) => pluginNames.has(s.name));
    const off = new Set(options.disabled ?? []);
    const isOff = (s: SkillEntry) => off.has(s.name) || (s.source !== 'user' && off.has(shortName(s.name)));
    const all = [
      ...user.skills,
      ...plugin.sort((a, b) => a.name.localeCompare(b.name)),
      ...taps.skills.filter((s) => !pluginNames.has(s.name)),
    ];
    this.skills = all.filter((s) => !isOff(s));
    this.disabled = all.filter(isOff);
    this.broken = [...user.broken, ...taps.broken];
    this.warnings = [
      ...user.warnings,
      ...taps.warnings,
      ...clashes.map((s) => `${s.path}: tap skill ${s.name} left out: a plugin's skill has that name`),
    ];
  }

  /** The skill called `name`: its full name, else a plugin or tap skill's unambiguous short name. */
  find(name: string): SkillEntry | undefined {
    const exact = this.skills.find((s) => s.name === name);
    if (exact) return exact;
    const short = this.skills.filter((s) => s.source !== 'user' && shortName(s.name) === name);
    return short.length === 1 ? short[0] : undefined;
  }

  /** The skill's instructions (a plugin's SKILL.md is read now, its front matter dropped). */
  async instructions(skill: SkillEntry): Promise<string> {
    if (skill.body !== null) return skill.body;
    if (skill.path === null) return '';
    const text = await readFile(skill.path, 'utf8');
    const parsed = parseSkillFile(text, skill.path);
    return parsed.ok ? parsed.skill.body : text;
  }

  /**
   * The compact index for the system prompt: one line per skill (capped), empty without skills.
   * Built from the skills loaded at start, so it is the same for every turn of the process.
   */
  index(): string {
    if (this.skills.length === 0) return '';
    const cut = (text: string) =>
      text.length > SKILL_INDEX_DESCRIPTION_MAX ? `${text.slice(0, SKILL_INDEX_DESCRIPTION_MAX - 1)}…` : text;
    const lines = this.skills.slice(0, SKILL_INDEX_MAX).map((s) => `- ${s.name}: ${cut(s.description)}`);
    const more = this.skills.length - SKILL_INDEX_MAX;
    if (more > 0) lines.push(`- … and ${more} more (skills_list lists them all)`);
    return [
      '## Skills',
      'Skills are instructions for tasks. Before doing a task one of these covers, read it with skill_view {"name": "<skill>"}.',
      ...lines,
    ].join('\n');
  }
}
