/** `hermes plugins update NAME`: a fresh fetch from the recorded source replaces the plugin; config is kept. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readManifest } from '@hermes/plugins';
import type { GlobalOptions } from '../main.js';
import { discoverPlugins } from './plugins-discover.js';
import { envNeeds } from './plugins-entry.js';
import { promptForEnv } from './plugins-env-prompt.js';
import { fetchAndPlace } from './plugins-fetch-validated.js';
import { pluginsHome } from './plugins-home.js';
import { requireKnownPlugin } from './plugins-known.js';
import { INSTALL_RECORD } from './plugins-place.js';
import { createPrompter } from './plugins-prompt.js';
import { parseInstallSource } from './plugins-source.js';

function recordedSource(dir: string, name: string): string {
  const file = join(dir, INSTALL_RECORD);
  if (!existsSync(file)) {
    throw new Error(
      `${name} was not installed by hermes plugins install (no ${INSTALL_RECORD}); reinstall it with --force`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const source = typeof data === 'object' && data !== null ? (data as { source?: unknown }).source : undefined;
  if (typeof source !== 'string' || source === '') throw new Error(`${file}: source: expected the install source`);
  return source;
}

/** Re-installs NAME from the source recorded at install time; enabled/disabled state is untouched. */
export async function pluginsUpdate(name: string, options: GlobalOptions): Promise<void> {
  const { home, pluginsDir } = pluginsHome(options);
  const dir = join(pluginsDir, name);
  if (!existsSync(dir)) {
    const record = requireKnownPlugin(name, (await discoverPlugins(options, false)).records);
    throw new Error(
      `${name} is not in ${pluginsDir} (it is ${record.source}: ${record.dir}); only installed plugins update`,
    );
  }
  const src = recordedSource(dir, name);
  const before = await readManifest(join(dir, 'plugin.yaml')).then(
    (m) => m.version,
    () => '?',
  );
  const source = parseInstallSource(src, process.cwd());
  const { manifest } = await fetchAndPlace({ source, src, pluginsDir, replace: true, expectName: name });
  process.stdout.write(`updated ${name} ${before} -> ${manifest.version} (from ${src})\n`);
  const prompter = createPrompter();
  try {
    await promptForEnv(home, envNeeds(manifest), prompter);
  } finally {
    prompter.close();
  }
}
