/**
 * `hermes update` for an npm install: the registry's newest version of the package, and the
 * command that installs it (run for a global install, printed for any other).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mustRun, runStep } from './run-step.js';

export interface NpmState {
  name: string;
  installed: string;
  latest: string;
}

export function npmState(root: string): NpmState {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
  const latest = mustRun('asking the registry', 'npm', ['view', `${pkg.name}@latest`, 'version'], root).trim();
  return { name: pkg.name, installed: pkg.version, latest };
}

/** Whether `a` is an older version than `b` (major.minor.patch; a pre-release is older than its release). */
export function olderThan(a: string, b: string): boolean {
  const parse = (v: string) => {
    const [core = '', pre] = v.split('-', 2);
    return { nums: core.split('.').map((n) => Number(n) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d !== 0) return d < 0;
  }
  return x.pre !== undefined && y.pre === undefined;
}

export function describeNpm(s: NpmState): string {
  return olderThan(s.installed, s.latest)
    ? `hermes (npm package ${s.name}) ${s.installed} is installed; the registry's newest is ${s.latest}`
    : `hermes (npm package ${s.name}) ${s.installed} is up to date (the registry's newest is ${s.latest})`;
}

/** Installs the newest version when this is npm's global install; else says what to run. */
export function updateNpm(root: string, s: NpmState, say: (line: string) => void): boolean {
  const globalRoot = runStep('npm', ['root', '-g'], root).stdout.trim();
  const command = ['install', '-g', `${s.name}@${s.latest}`];
  if (globalRoot === '' || !resolve(root).startsWith(resolve(globalRoot))) {
    say(`not npm's global install: run \`npm ${command.join(' ')}\` (or update ${root} the way it was installed)`);
    return false;
  }
  mustRun('installing', 'npm', command, root);
  say(`updated ${s.name}: ${s.installed} -> ${s.latest}`);
  return true;
}
