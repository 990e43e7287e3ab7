/**
 * What a fresh node process loads: it runs with a module resolve hook that logs the URL of every
 * module it resolves (its entry included), so a test can say which packages a command, an import or
 * a plugin brings in (kept lazy, or bundled). The process gets no NODE_OPTIONS of the caller.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface ResolvedRun {
  /** every module URL resolved, in order */
  urls: string[];
  /** the packages under node_modules among them (`@scope/name` or `name`) */
  packages: Set<string>;
  stdout: string;
  stderr: string;
  status: number | null;
}

/** Runs `node <args>` (e.g. a script and its arguments, or `--input-type=module -e CODE`) logging what it resolves. */
export function runResolving(args: readonly string[], env: Record<string, string> = {}): ResolvedRun {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-resolved-'));
  try {
    const log = join(dir, 'resolved.txt');
    const hooks = join(dir, 'hooks.mjs');
    writeFileSync(
      hooks,
      `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + '\\n');
  return result;
}\n`,
    );
    const register = join(dir, 'register.mjs');
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
    );
    writeFileSync(log, '');
    const run = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, ...args], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '', ...env },
    });
    const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const packages = new Set<string>();
    for (const url of urls) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
      if (m?.[1]) packages.add(m[1]);
    }
    return { urls, packages, stdout: run.stdout, stderr: run.stderr, status: run.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `runResolving` of ES module code (`--input-type=module -e code`). */
export function runCodeResolving(code: string): ResolvedRun {
  return runResolving(['--input-type=module', '-e', code]);
}
