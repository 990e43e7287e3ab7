/** What `hermes plugins install SRC` was given: a local folder, a git URL, owner/repo, or npm:<package>. */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliExit } from '../cli-error.js';

export type InstallSource =
  | { kind: 'dir'; path: string; record: string }
  | { kind: 'git'; url: string; record: string }
  | { kind: 'npm'; spec: string; record: string };

const GIT_URL = /^(file:\/\/|https?:\/\/|ssh:\/\/|git:\/\/|git@)|\.git\/?$/;
const OWNER_REPO = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/**
 * Classifies SRC. An existing directory wins over the other readings; `record` is what
 * .hermes-install.json keeps for `update` (local folders made absolute).
 */
export function parseInstallSource(src: string, cwd: string): InstallSource {
  if (src.startsWith('npm:')) {
    const spec = src.slice(4).trim();
    if (spec === '') throw new CliExit(2, 'npm: needs a package name, e.g. npm:hermes-plugin-foo');
    return { kind: 'npm', spec, record: src };
  }
  const local = resolve(cwd, src);
  if (existsSync(local) && statSync(local).isDirectory()) return { kind: 'dir', path: local, record: local };
  if (GIT_URL.test(src)) return { kind: 'git', url: src, record: src };
  if (OWNER_REPO.test(src)) {
    const url = `https://github.com/${src}.git`;
    return { kind: 'git', url, record: url };
  }
  throw new CliExit(
    1,
    `cannot install '${src}': not a directory, a git URL (https://, file://, git@, *.git), owner/repo or npm:<package>`,
  );
}
