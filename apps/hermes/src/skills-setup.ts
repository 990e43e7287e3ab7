/**
 * The skills of a runtime, read once after the plugins loaded: HERMES_HOME/skills/<name>/SKILL.md,
 * the plugins' `ctx.registerSkill` and the taps' (HERMES_HOME/skill-taps/), minus skills.disabled.
 * A bad skill is logged with its file and line and skipped (`hermes skills list` shows it too).
 */
import { basename, join } from 'node:path';
import { loadSkillsDir, loadTapsDir, SkillCatalog, type SkillCommands, skillCommands } from '@hermes/agent';
import type { PluginRegistries } from '@hermes/plugins';
import type { Logger } from '@hermes/protocol';
import type { Settings } from './settings.js';
import { tapItemId, tapsDir } from './skill-taps/tap-paths.js';

/** HERMES_HOME/skills */
export const skillsDir = (home: string) => join(home, 'skills');

/**
 * The catalog; `allows("skill:<folder>")` false leaves a user skill out, `allows("tap:<name>")`
 * false a whole tap (not approved: trust-gate.ts).
 */
export function loadSkillCatalog(
  settings: Settings,
  registries: PluginRegistries,
  logger?: Logger,
  allows: (id: string) => boolean = () => true,
): SkillCatalog {
  const user = loadSkillsDir(skillsDir(settings.home));
  const catalog = new SkillCatalog({
    user: { ...user, skills: user.skills.filter((s) => allows(`skill:${basename(s.dir ?? s.name)}`)) },
    plugins: registries.skills.values(),
    taps: loadTapsDir(tapsDir(settings.home), (tap) => allows(tapItemId(tap))),
    disabled: settings.config.skills.disabled,
  });
  for (const b of catalog.broken) logger?.warn({ skill: b.name }, `skill skipped: ${b.error}`);
  for (const w of catalog.warnings) logger?.warn(`skill: ${w}`);
  return catalog;
}

/**
 * The `/skill-name` commands of a surface: built-in and plugin commands win over a skill of the
 * same name (warned once, here).
 */
export function surfaceSkillCommands(
  catalog: SkillCatalog,
  taken: (name: string) => boolean,
  surface: string,
  logger: Logger,
): SkillCommands {
  return skillCommands(catalog, taken, (skill) =>
    logger.warn(
      { skill: skill.name },
      `skill "${skill.name}" is not a /${skill.name} command in ${surface}: a built-in or plugin command has that name (skill_view still reads it)`,
    ),
  );
}
