/** Fetch + validate + place: the shared core of `install` and `update`. */
import type { PluginManifest } from '@hermes/plugins';
import { fetchSource } from './plugins-fetch.js';
import { placePlugin } from './plugins-place.js';
import type { InstallSource } from './plugins-source.js';
import { validateFetched } from './plugins-validate.js';

export interface Installed {
  manifest: PluginManifest;
  dir: string;
}

/**
 * Fetches `source`, validates plugin.yaml before copying anything, optionally checks the manifest
 * name, then places the plugin under `pluginsDir`. Temporary files are always removed.
 */
export async function fetchAndPlace(options: {
  source: InstallSource;
  src: string;
  pluginsDir: string;
  replace: boolean;
  expectName?: string;
}): Promise<Installed> {
  const fetched = await fetchSource(options.source);
  try {
    const manifest = await validateFetched(fetched.dir, options.src);
    if (options.expectName !== undefined && manifest.name !== options.expectName) {
      throw new Error(
        `${options.src} now names its plugin '${manifest.name}' (plugin.yaml name), not '${options.expectName}'; install it with hermes plugins install`,
      );
    }
    const dir = await placePlugin({
      from: fetched.dir,
      pluginsDir: options.pluginsDir,
      name: manifest.name,
      replace: options.replace,
      record: {
        source: options.source.record,
        installedAt: new Date().toISOString(),
        ...(fetched.commit ? { commit: fetched.commit } : {}),
      },
    });
    return { manifest, dir };
  } finally {
    await fetched.cleanup();
  }
}
