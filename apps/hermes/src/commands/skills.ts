import type { GlobalOptions } from '../main.js';
import { pluginRegistrations } from '../plugin-registrations.js';
import { loadSettings } from '../runtime.js';
import { loadSkillCatalog, skillsDir } from '../skills-setup.js';

/** One row of the listing (the JSON form's element). */
export interface SkillListEntry {
  name: string;
  description: string;
  /** `user` (HERMES_HOME/skills/), `plugin` or `tap` (HERMES_HOME/skill-taps/) */
  source: 'user' | 'plugin' | 'tap';
  plugin: string | null;
  tap: string | null;
  /** SKILL.md (null: a plugin's inline skill) */
  path: string | null;
  state: 'enabled' | 'disabled' | 'broken';
  /** why a broken skill was skipped: `file:line: …` */
  error: string | null;
  /** unknown front matter keys and the like */
  warnings: string[];
}

export async function skillEntries(options: GlobalOptions): Promise<SkillListEntry[]> {
  const settings = loadSettings(options);
  const { home, config, env } = settings;
  const { registries } = await pluginRegistrations({ home, config, env });
  const catalog = loadSkillCatalog(settings, registries);
  const warningsOf = (path: string | null) => (path ? catalog.warnings.filter((w) => w.startsWith(`${path}:`)) : []);
  const row = (s: (typeof catalog.skills)[number], state: 'enabled' | 'disabled'): SkillListEntry => ({
    name: s.name,
    description: s.description,
    source: s.source,
    plugin: s.plugin ?? null,
    tap: s.tap ?? null,
    path: s.path,
    state,
    error: null,
    warnings: warningsOf(s.path),
  });
  return [
    ...catalog.skills.map((s) => row(s, 'enabled')),
    ...catalog.disabled.map((s) => row(s, 'disabled')),
    ...catalog.broken.map(
      (b): SkillListEntry => ({
        name: b.name,
        description: '',
        source: b.tap === undefined ? 'user' : 'tap',
        plugin: null,
        tap: b.tap ?? null,
        path: b.path,
        state: 'broken',
        error: b.error,
        warnings: [],
      }),
    ),
  ];
}

export async function skillsList(options: GlobalOptions, opts: { json?: boolean }): Promise<void> {
  const entries = await skillEntries(options);
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
    return;
  }
  if (entries.length === 0) {
    const { home } = loadSettings(options);
    process.stdout.write(`No skills. Add one as ${skillsDir(home)}/<name>/SKILL.md (see docs/skills.md).\n`);
    return;
  }
  for (const e of entries) {
    const from = e.source === 'plugin' ? `plugin ${e.plugin}` : e.source === 'tap' ? `tap ${e.tap}` : 'user';
    if (e.state === 'broken') {
      process.stdout.write(`✗ ${e.name}  (${from}, broken)\n    ${e.error}\n`);
      continue;
    }
    const mark = e.state === 'enabled' ? '✓' : '-';
    process.stdout.write(
      `${mark} ${e.name}  (${from}${e.state === 'disabled' ? ', disabled' : ''})  ${e.description}\n`,
    );
    for (const w of e.warnings) process.stdout.write(`    warning: ${w}\n`);
  }
}
