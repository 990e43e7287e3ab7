/** Checks fetched plugin files before anything is copied: a valid plugin.yaml and an entry file. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ENTRY_FILES, type PluginManifest, readManifest } from '@hermes/plugins';

/**
 * Reads `<dir>/plugin.yaml`; throws one line naming plugin.yaml (as `<src>/plugin.yaml`) and the
 * field when it is missing or invalid, or when there is no entry file.
 */
export async function validateFetched(dir: string, src: string): Promise<PluginManifest> {
  const file = join(dir, 'plugin.yaml');
  if (!existsSync(file)) throw new Error(`${src}: no plugin.yaml at the top level; is it a Hermes plugin?`);
  let manifest: PluginManifest;
  try {
    manifest = await readManifest(file);
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).split(file).join('plugin.yaml');
    throw new Error(`invalid plugin in ${src}: ${message}`);
  }
  if (!ENTRY_FILES.some((f) => existsSync(join(dir, f)))) {
    throw new Error(`invalid plugin in ${src}: no entry file (${ENTRY_FILES.join(', ')}) next to plugin.yaml`);
  }
  return manifest;
}
