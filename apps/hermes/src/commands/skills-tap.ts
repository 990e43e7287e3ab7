/**
 * `hermes skills tap add|list|update|remove`: repositories of skills cloned (shallow) into
 * HERMES_HOME/skill-taps/<name>/. Their skills join the catalog as `<tap>:<skill>` once the tap
 * is approved (`tap:<name>`, bound to the sha256 of its working files). Only the operator runs
 * these: under the agent's terminal they are refused, and consent is recorded only at a terminal
 * or with --yes (trust/consent-allowed.ts), and only for a checkout that is exactly its commit.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadTapSkills } from '@hermes/agent';
import { AGENT_TERMINAL_MARKER, ERROR_CODES, HermesError } from '@hermes/protocol';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { loadSettings } from '../settings.js';
import { cloneTap, pullTap, type TapCheckout, tapCheckout } from '../skill-taps/tap-git.js';
import { tapItem, tapNames } from '../skill-taps/tap-items.js';
import { tapItemId, tapsDir } from '../skill-taps/tap-paths.js';
import { tapName, tapUrl } from '../skill-taps/tap-source.js';
import { recordConsent } from '../trust/record-consent.js';
import { approveCommand, trustStates } from '../trust/trust-gate.js';
import { TrustStore } from '../trust/trust-store.js';

const out = (line: string) => process.stdout.write(`${line}\n`);
const short = (commit: string) => commit.slice(0, 7);
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** Taps are the operator's: a `hermes skills tap ...` the model's terminal runs is refused. */
function refuseAgent(): void {
  if ((process.env[AGENT_TERMINAL_MARKER] ?? '') !== '') {
    throw new HermesError(
      ERROR_CODES.USAGE,
      `skill taps are managed by the operator only (run by the agent's terminal tool: ${AGENT_TERMINAL_MARKER} is set)`,
    );
  }
}

/** Records consent for the tap as it is now when its checkout is clean and a human runs this; prints why not otherwise. */
function consentFor(home: string, name: string, dir: string, checkout: TapCheckout, yes: boolean): void {
  if (!checkout.clean) {
    out(
      `${tapItemId(name)}: not approved: its files differ from commit ${short(checkout.commit)} (git status in ${dir}); read them, then \`${approveCommand(tapItemId(name))}\``,
    );
    return;
  }
  for (const line of recordConsent(home, [tapItem(name, dir)], 'hermes skills tap', yes)) out(line);
}

const skillNames = (name: string, dir: string): string[] => loadTapSkills(name, dir).skills.map((s) => s.name);

/** `hermes skills tap add SRC [--name N] [--yes]`. */
export async function tapAdd(
  src: string,
  opts: { name?: string; yes?: boolean },
  options: GlobalOptions,
): Promise<void> {
  refuseAgent();
  const { home } = loadSettings(options);
  const url = tapUrl(src, process.cwd());
  const name = tapName(url, opts.name);
  const root = tapsDir(home);
  const dir = join(root, name);
  if (existsSync(dir)) {
    throw new CliExit(
      1,
      `a tap named ${name} exists (${dir}): \`hermes skills tap update ${name}\`, or remove it first`,
    );
  }
  mkdirSync(root, { recursive: true, mode: 0o700 });
  // cloned beside it under a dot name (never read as a tap), then moved into place whole
  const tmp = join(root, `.${name}.adding-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  try {
    await cloneTap(url, tmp, process.cwd());
    const loaded = loadTapSkills(name, tmp);
    if (loaded.skills.length === 0 && loaded.broken.length === 0) {
      throw new CliExit(1, `no skills in ${src}: a tap holds folders with a SKILL.md, under skills/ or at its root`);
    }
    renameSync(tmp, dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const checkout = await tapCheckout(dir);
  const skills = skillNames(name, dir);
  out(
    `added tap ${name} from ${url} (commit ${short(checkout.commit)}): ${count(skills.length, 'skill')}: ${skills.join(', ')}`,
  );
  const broken = loadTapSkills(name, dir).broken;
  for (const b of broken) out(`  skipped: ${b.error}`);
  consentFor(home, name, dir, checkout, opts.yes === true);
  out('its skills load at the next start of hermes chat, hermes -z or the gateway (hermes gateway restart)');
}

export interface TapRow {
  name: string;
  url: string;
  commit: string;
  skills: string[];
  /** the consent of its files now */
  consent: 'approved' | 'new' | 'changed';
  dir: string;
}

async function tapRows(home: string): Promise<TapRow[]> {
  const { store } = TrustStore.load(home);
  const rows: TapRow[] = [];
  for (const name of tapNames(home)) {
    const dir = join(tapsDir(home), name);
    const checkout = await tapCheckout(dir).catch(() => ({ url: '?', commit: '?', clean: false }));
    const [state] = trustStates(store, [tapItem(name, dir)]);
    rows.push({
      name,
      url: checkout.url,
      commit: checkout.commit,
      skills: skillNames(name, dir),
      consent: state?.state ?? 'new',
      dir,
    });
  }
  return rows;
}

/** `hermes skills tap list [--json]`. */
export async function tapList(options: GlobalOptions, opts: { json?: boolean }): Promise<void> {
  const { home } = loadSettings(options);
  const rows = await tapRows(home);
  if (opts.json === true) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  if (rows.length === 0) {
    out('No skill taps. Add one with `hermes skills tap add <owner/repo | git URL | path>`.');
    return;
  }
  const words = { approved: 'approved', new: 'pending (new)', changed: 'pending (changed since approval)' };
  for (const r of rows) {
    out(`${r.name}  ${r.url}  ${short(r.commit)}  ${count(r.skills.length, 'skill')}  ${words[r.consent]}`);
    if (r.skills.length > 0) out(`    ${r.skills.join(', ')}`);
  }
}

/** `hermes skills tap update [NAME] [--yes]`: `git pull --ff-only` each tap (or the one named). */
export async function tapUpdate(
  name: string | undefined,
  opts: { yes?: boolean },
  options: GlobalOptions,
): Promise<void> {
  refuseAgent();
  const { home } = loadSettings(options);
  const names = name === undefined ? tapNames(home) : [requireTap(home, name)];
  if (names.length === 0) out('No skill taps.');
  let failed = 0;
  for (const n of names) {
    const dir = join(tapsDir(home), n);
    let pulled: Awaited<ReturnType<typeof pullTap>>;
    try {
      pulled = await pullTap(dir);
    } catch (err) {
      failed++;
      const why = err instanceof Error ? err.message : String(err);
      process.stderr.write(`hermes: ${n}: ${why} (not a fast-forward: remove the tap and add it again)\n`);
      continue;
    }
    if (pulled.before === pulled.after) out(`${n}: up to date (${short(pulled.after)})`);
    else {
      out(`${n}: ${short(pulled.before)} -> ${short(pulled.after)}, ${count(pulled.files.length, 'file')} changed:`);
      for (const f of pulled.files) out(`    ${f}`);
      out(`    skills now: ${skillNames(n, dir).join(', ') || 'none'}`);
    }
    consentFor(home, n, dir, await tapCheckout(dir), opts.yes === true);
  }
  if (failed > 0) throw new CliExit(1, `${failed} of ${names.length} taps not updated`);
}

function requireTap(home: string, name: string): string {
  const names = tapNames(home);
  if (!names.includes(name)) {
    throw new CliExit(1, `no skill tap named ${name} (taps: ${names.join(', ') || 'none'})`);
  }
  return name;
}

/** `hermes skills tap remove NAME`: deletes its folder and its approval. */
export async function tapRemove(name: string, options: GlobalOptions): Promise<void> {
  refuseAgent();
  const { home } = loadSettings(options);
  requireTap(home, name);
  const dir = join(tapsDir(home), name);
  rmSync(dir, { recursive: true, force: true });
  const { store } = TrustStore.load(home);
  if (store.revoke(tapItemId(name))) store.save();
  out(`removed tap ${name} (${dir}) and its approval; its skills are gone at the next start`);
}
