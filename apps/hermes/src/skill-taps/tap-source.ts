/** What `hermes skills tap add SRC` was given: owner/repo (GitHub), a git URL, or a local git repository. */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import { TAP_NAME } from './tap-paths.js';

const GIT_URL = /^(file:\/\/|https?:\/\/|ssh:\/\/|git:\/\/|git@)|\.git\/?$/;
const OWNER_REPO = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/**
 * The URL git clones SRC from. An existing folder wins over the other readings and is cloned as
 * a `file://` URL (so `--depth 1` applies and `update` pulls from it again).
 */
export function tapUrl(src: string, cwd: string): string {
  const local = resolve(cwd, src);
  if (existsSync(local) && statSync(local).isDirectory()) return pathToFileURL(local).href;
  if (GIT_URL.test(src)) return src;
  if (OWNER_REPO.test(src)) return `https://github.com/${src}.git`;
  throw new HermesError(
    ERROR_CODES.USAGE,
    `cannot add tap '${src}': not owner/repo (GitHub), a git URL (https://, file://, git@, *.git) nor a local git repository`,
  );
}

/** The tap's name: `--name`, else the repository's (its URL's last segment without .git), lowercased. */
export function tapName(url: string, given: string | undefined): string {
  if (given !== undefined) {
    if (!TAP_NAME.test(given)) {
      throw new HermesError(
        ERROR_CODES.USAGE,
        `bad tap name "${given}": use lowercase letters, digits, - and _ (up to 64, starting with a letter or digit)`,
      );
    }
    return given;
  }
  const last = url.replace(/\/+$/, '').split(/[/:]/).pop() ?? '';
  const name = last
    .replace(/\.git$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, 64);
  if (!TAP_NAME.test(name)) {
    throw new HermesError(ERROR_CODES.USAGE, `cannot name a tap after ${url}: give one with --name`);
  }
  return name;
}
