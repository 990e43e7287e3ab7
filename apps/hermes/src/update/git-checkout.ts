/**
 * `hermes update` for a git checkout (how this repository is installed): fetch the branch's
 * upstream, fast-forward only (never a merge, never over local changes), then `npm ci` (whose
 * `prepare` builds), the new code's `hermes state migrate`, and a restart of a running gateway by
 * the new code.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CliExit } from '../cli-error.js';
import { mustRun, runStep } from './run-step.js';

export interface CheckoutState {
  upstream: string;
  behind: number;
  ahead: number;
  /** the newest upstream commit's subject, when behind */
  newest: string | null;
  /** `git status --porcelain` of tracked files (untracked ones do not stop a fast-forward) */
  changes: string[];
}

export function isGitCheckout(root: string): boolean {
  return existsSync(join(root, '.git'));
}

/** Fetches and compares the checkout with its upstream. */
export function checkoutState(root: string): CheckoutState {
  const upstream = runStep('git', ['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{u}'], root);
  if (upstream.code !== 0) {
    throw new CliExit(
      1,
      `update: the checkout at ${root} is on a branch without an upstream (git branch --set-upstream-to)`,
    );
  }
  const name = upstream.stdout.trim();
  mustRun('fetching', 'git', ['fetch', '--quiet', name.split('/')[0] ?? 'origin'], root);
  const count = (range: string) => Number(mustRun('comparing', 'git', ['rev-list', '--count', range], root).trim());
  const behind = count('HEAD..@{u}');
  const ahead = count('@{u}..HEAD');
  const newest =
    behind > 0 ? mustRun('reading the log', 'git', ['log', '-1', '--format=%s', '@{u}'], root).trim() : null;
  const changes = mustRun('reading the status', 'git', ['status', '--porcelain', '--untracked-files=no'], root)
    .split('\n')
    .filter(Boolean);
  return { upstream: name, behind, ahead, newest, changes };
}

export function describeCheckout(root: string, s: CheckoutState): string {
  if (s.behind === 0) return `hermes (git checkout ${root}) is up to date with ${s.upstream}`;
  const commits = `${s.behind} commit${s.behind === 1 ? '' : 's'}`;
  return `hermes (git checkout ${root}) is ${commits} behind ${s.upstream} (newest: ${s.newest ?? '?'})`;
}

/** Refuses what a fast-forward cannot do safely. */
export function assertUpdatable(root: string, s: CheckoutState): void {
  if (s.changes.length > 0) {
    throw new CliExit(
      1,
      `update: the checkout at ${root} has local changes (${s.changes.length} file${s.changes.length === 1 ? '' : 's'}, e.g. ${s.changes[0]?.trim()}): commit or stash them first`,
    );
  }
  if (s.ahead > 0) {
    throw new CliExit(
      1,
      `update: the checkout at ${root} has ${s.ahead} local commit${s.ahead === 1 ? '' : 's'} not on ${s.upstream}: update it by hand (git pull --rebase)`,
    );
  }
}

/** Fast-forwards and installs; returns the lines to print. */
export function updateCheckout(root: string, s: CheckoutState, say: (line: string) => void): void {
  const from = mustRun('reading HEAD', 'git', ['rev-parse', '--short', 'HEAD'], root).trim();
  mustRun('fast-forwarding', 'git', ['merge', '--ff-only', '--quiet', '@{u}'], root);
  const to = mustRun('reading HEAD', 'git', ['rev-parse', '--short', 'HEAD'], root).trim();
  say(`updated ${root}: ${from} -> ${to} (${s.behind} commit${s.behind === 1 ? '' : 's'} from ${s.upstream})`);
  const back = ` (the checkout is at ${to}; fix the cause and run hermes update again, or git checkout ${from} to go back)`;
  mustRun('installing (npm ci, which builds)', 'npm', ['ci', '--no-audit', '--no-fund'], root, back);
  say('installed and built (npm ci)');
}
