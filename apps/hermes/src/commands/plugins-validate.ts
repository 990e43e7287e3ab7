/** Checks fetched plugin files before anything is copied: a valid plugin.yaml and an entry file. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ENTRY_FILES, type PluginManifest, readManifest } from '@hermes/plugins';
import { ERROR_CODES, HermesError } from '@hermes/protocol';

const cannotLoad = (message: string) => new HermesError(ERROR_CODES.PLUGIN_LOAD, message);

/**
 * Reads `<dir>/plugin.yaml`; throws one line naming plugin.yaml (as `<src>/plugin.yaml`) and the
 * field when it is missing or invalid (`HERMES_PLUGIN_MANIFEST`), or when there is no entry file
 * (`HERMES_PLUGIN_LOAD`).
 */
export async function validateFetched(dir: string, src: string): Promise<PluginManifest> {
  const file = join(dir, 'plugin.yaml');
  if (!existsSync(file)) throw cannotLoad(`${src}: no plugin.yaml at the top level; is it a Hermes plugin?`);
  let manifest: PluginManifest;
  try {
    manifest = await readManifest(file);
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).split(file).join('plugin.yaml');
    throw new HermesError(ERROR_CODES.PLUGIN_MANIFEST, `invalid plugin in ${src}: ${message}`, { cause: err });
  }
  if (!ENTRY_FILES.some((f) => existsSync(join(dir, f)))) {
    throw cannotLoad(`invalid plugin in ${src}: no entry file (${ENTRY_FILES.join(', ')}) next to plugin.yaml`);
  }
  return manifest;
}
