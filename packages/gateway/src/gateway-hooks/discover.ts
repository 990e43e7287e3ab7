/** Finds gateway hooks: `<hooksDir>/<folder>/HOOK.yaml` plus `handler.ts|js|mjs`, in folder-name order. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, type ErrorCode } from '@hermes/protocol';
import { HookManifestError, parseHookManifest } from './manifest.js';

/** The handler files looked for, in this order. */
export const HANDLER_FILES = ['handler.ts', 'handler.js', 'handler.mjs'] as const;

export interface GatewayHookSpec {
  name: string;
  description: string;
  events: string[];
  dir: string;
  handlerFile: string;
  warnings: string[];
}

export interface DiscoveredGatewayHooks {
  hooks: GatewayHookSpec[];
  /** folders that are not valid hooks, with why */
  /** `code`: HERMES_HOOK_MANIFEST when the folder's HOOK.yaml is missing, invalid or takes a used name */
  skipped: { dir: string; reason: string; code?: ErrorCode }[];
}

/** Reads every hook folder under `hooksDir` (missing dir: none); invalid folders are skipped with a reason. */
export function discoverGatewayHooks(hooksDir: string): DiscoveredGatewayHooks {
  const result: DiscoveredGatewayHooks = { hooks: [], skipped: [] };
  if (!existsSync(hooksDir)) return result;
  const folders = readdirSync(hooksDir)
    .filter((name) => !name.startsWith('.'))
    .sort()
    .map((name) => join(hooksDir, name))
    .filter((dir) => statSync(dir).isDirectory());
  const byName = new Map<string, string>();
  for (const dir of folders) {
    const manifestFile = join(dir, 'HOOK.yaml');
    if (!existsSync(manifestFile)) {
      result.skipped.push({ dir, reason: `no HOOK.yaml in ${dir}`, code: ERROR_CODES.HOOK_MANIFEST });
      continue;
    }
    let manifest: ReturnType<typeof parseHookManifest>;
    try {
      manifest = parseHookManifest(readFileSync(manifestFile, 'utf8'), manifestFile);
    } catch (err) {
      const reason = err instanceof HookManifestError ? err.message : `${manifestFile}: ${String(err)}`;
      result.skipped.push({ dir, reason, code: ERROR_CODES.HOOK_MANIFEST });
      continue;
    }
    const handler = HANDLER_FILES.map((f) => join(dir, f)).find((f) => existsSync(f));
    if (!handler) {
      result.skipped.push({ dir, reason: `no handler in ${dir} (expected one of ${HANDLER_FILES.join(', ')})` });
      continue;
    }
    const taken = byName.get(manifest.name);
    if (taken) {
      result.skipped.push({
        dir,
        reason: `${manifestFile}: name "${manifest.name}" is already used by ${taken}`,
        code: ERROR_CODES.HOOK_MANIFEST,
      });
      continue;
    }
    byName.set(manifest.name, dir);
    result.hooks.push({ ...manifest, dir, handlerFile: handler });
  }
  return result;
}
