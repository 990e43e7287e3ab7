/** HERMES_HOME and profiles: which directory a command works in. */
import { readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import { hasErrorCode } from './fs-helpers.js';
import type { EnvLike } from './hermes-config.js';

/** The name that means "no profile": the root home itself. */
export const DEFAULT_PROFILE = 'default';

const PROFILE_NAME = /^[A-Za-z0-9_-]+$/;

export interface ResolvedHome {
  /** HERMES_HOME, absolute */
  root: string;
  /** the directory this process uses: `root`, or `root/profiles/<profile>` */
  home: string;
  /** the active profile, or null for the default home */
  profile: string | null;
}

export interface ProfileInfo {
  /** "default" for the root home, else the profile name */
  name: string;
  /** null for the default home */
  profile: string | null;
  home: string;
}

function expandTilde(path: string, env: EnvLike): string {
  if (path !== '~' && !path.startsWith('~/')) return path;
  const userHome = env.HOME || env.USERPROFILE || homedir();
  return join(userHome, path.slice(1));
}

/** True when `name` is a usable profile name (letters, digits, "_" and "-"). */
export function isValidProfileName(name: string): boolean {
  return PROFILE_NAME.test(name);
}

function checkProfileName(name: string, source: string): void {
  if (!isValidProfileName(name)) {
    throw new HermesError(
      ERROR_CODES.CONFIG_KEY,
      `invalid profile name ${JSON.stringify(name)} (from ${source}): use only letters, digits, "_" and "-"`,
    );
  }
}

/**
 * Resolves HERMES_HOME (default `~/.hermes`, `~` expanded, made absolute) and the profile (the
 * argument, else HERMES_PROFILE). "default" selects the root home. Throws CONFIG_KEY for a bad name.
 */
export function resolveHome(options: { env: EnvLike; profile?: string | undefined }): ResolvedHome {
  const { env } = options;
  const root = resolve(expandTilde(env.HERMES_HOME || '~/.hermes', env));
  let profile: string | null = null;
  if (options.profile !== undefined) {
    checkProfileName(options.profile, '--profile');
    profile = options.profile;
  } else if (env.HERMES_PROFILE) {
    checkProfileName(env.HERMES_PROFILE, 'HERMES_PROFILE');
    profile = env.HERMES_PROFILE;
  }
  if (profile === DEFAULT_PROFILE) profile = null;
  return { root, home: profile === null ? root : join(root, 'profiles', profile), profile };
}

/** The default home plus every valid-named directory in `<root>/profiles/`, sorted by name. */
export function listProfiles(root: string): ProfileInfo[] {
  const profilesDir = join(root, 'profiles');
  let names: string[] = [];
  try {
    names = readdirSync(profilesDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && isValidProfileName(entry.name) && entry.name !== DEFAULT_PROFILE)
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    if (!hasErrorCode(error, 'ENOENT')) throw error;
  }
  return [
    { name: DEFAULT_PROFILE, profile: null, home: root },
    ...names.map((name) => ({ name, profile: name, home: join(profilesDir, name) })),
  ];
}
