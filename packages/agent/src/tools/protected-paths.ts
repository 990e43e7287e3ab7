/**
 * Paths no file tool may touch and the sandbox hides, whatever `tools.file_roots` says: all of
 * HERMES_HOME but its cache/ and workspaces/ (its secrets, state and everything the gateway loads
 * at start: config.yaml, .env, hooks/, plugins/, skills/, memories/, BOOT.md, ...) and the user's
 * keys and shell start-up files.
 */
import path from 'node:path';

/** Entries of a HERMES_HOME (and of each of its profiles) that are never read or written. */
const HERMES_HOME_ENTRIES: readonly { name: string; why: string }[] = [
  { name: '.env', why: "HERMES_HOME's .env holds the gateway's secrets" },
  { name: 'config.yaml', why: "HERMES_HOME's config.yaml configures the gateway" },
  { name: 'state.db', why: "HERMES_HOME's state.db holds sessions and transcripts" },
  { name: 'state.db-wal', why: "HERMES_HOME's state.db holds sessions and transcripts" },
  { name: 'state.db-shm', why: "HERMES_HOME's state.db holds sessions and transcripts" },
  { name: 'state.db-journal', why: "HERMES_HOME's state.db holds sessions and transcripts" },
  { name: 'hooks', why: "HERMES_HOME's hooks/ holds code the gateway runs" },
  { name: 'plugins', why: "HERMES_HOME's plugins/ holds code the gateway runs" },
  {
    name: 'shell-hooks-allowlist.json',
    why: 'the shell-hook allowlist records which commands the user consented to run',
  },
  { name: 'gateway.lock', why: "the gateway's lock file" },
  { name: 'trust.json', why: 'the trust file records which code-loading settings the operator approved' },
];

/** The folders of a HERMES_HOME the tools may use: the cache and the per-session workspaces. */
export const HERMES_HOME_OPEN_DIRS: readonly string[] = ['cache', 'workspaces'];

/** Entries of the user's home directory that are never read or written (keys, credentials, shell start-up files). */
export const HOME_PROTECTED_ENTRIES: readonly { name: string; why: string }[] = [
  ...[
    '.ssh',
    '.gnupg',
    '.aws',
    '.netrc',
    '.git-credentials',
    '.docker/config.json',
    '.kube',
    '.config/gcloud',
    '.pgpass',
    '.config/gh',
  ].map((name) => ({ name, why: 'it holds keys or credentials' })),
  ...[
    '.bashrc',
    '.bash_profile',
    '.bash_login',
    '.bash_logout',
    '.profile',
    '.zshrc',
    '.zshenv',
    '.zprofile',
    '.zlogin',
    '.zlogout',
    '.config/fish',
  ].map((name) => ({ name, why: 'it is a shell start-up file, run by every new shell' })),
];

/** Where the protected entries live: the HERMES_HOME directories (root and profile) and the user's home. */
export interface ProtectedPlaces {
  hermesHomes: readonly string[];
  homeDir: string;
}

/** `child` relative to `parent` as segments, or null when `child` is not inside (or equal to) `parent`. */
export function segmentsUnder(parent: string, child: string): string[] | null {
  const rel = path.relative(parent, child);
  if (rel === '') return [];
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return null;
  return rel.split(path.sep);
}

/** True when `segments` starts with the entry `name` (which may have several segments). */
function startsWithEntry(segments: readonly string[], name: string): boolean {
  const entry = name.split('/');
  return entry.every((part, i) => segments[i] === part);
}

/** Why the HERMES_HOME-relative `segments` are protected (also inside `profiles/<name>/`), or null. */
function hermesEntryReason(segments: readonly string[]): string | null {
  if (segments[0] === 'profiles' && segments.length >= 3) return hermesEntryReason(segments.slice(2));
  const first = segments[0];
  if (first === undefined) return 'HERMES_HOME holds what the gateway loads and runs at start';
  if (first.startsWith('.env')) return "HERMES_HOME's .env holds the gateway's secrets";
  const named = HERMES_HOME_ENTRIES.find((e) => startsWithEntry(segments, e.name))?.why;
  if (named !== undefined) return named;
  if (HERMES_HOME_OPEN_DIRS.includes(first)) return null;
  return `HERMES_HOME's ${first} is read by the gateway (only cache/ and workspaces/ are open to tools)`;
}

/** /proc/<pid>/..., /proc/self/...: a process's environment (the gateway's secrets), memory and files. */
const PROC_PROCESS = /^\/proc\/(?:\d+|self|thread-self)(?:\/|$)/;

/** Why the absolute path `target` is protected, or null when it is not. */
export function protectedReason(target: string, places: ProtectedPlaces): string | null {
  if (PROC_PROCESS.test(target)) return "a process's /proc entry exposes its environment and memory";
  for (const home of places.hermesHomes) {
    const segments = segmentsUnder(home, target);
    const why = segments === null ? null : hermesEntryReason(segments);
    if (why !== null) return why;
  }
  const segments = segmentsUnder(places.homeDir, target);
  if (segments === null) return null;
  return HOME_PROTECTED_ENTRIES.find((e) => startsWithEntry(segments, e.name))?.why ?? null;
}

/**
 * The absolute paths the sandbox hides: each HERMES_HOME as a whole, and again its protected
 * entries and profiles/ (they stay hidden when the working directory is HERMES_HOME itself, as
 * for the installed service), and the protected entries of the user's home.
 */
export function pathsToHide(places: ProtectedPlaces): string[] {
  const hermes = places.hermesHomes.flatMap((home) => [
    home,
    ...[...HERMES_HOME_ENTRIES.map((e) => e.name), 'profiles'].map((name) => path.join(home, name)),
  ]);
  return [...hermes, ...HOME_PROTECTED_ENTRIES.map((e) => path.join(places.homeDir, e.name))];
}
