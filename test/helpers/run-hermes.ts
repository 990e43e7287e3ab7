import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HERMES_BIN = fileURLToPath(new URL('../../apps/hermes/bin/hermes.js', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** the homes tempHome made for the current test file (removed after it: test/helpers/per-file.ts) */
const homes = new Set<string>();

/** A fresh HERMES_HOME under the OS temp dir, removed once the test file is done. */
export function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'hermes-e2e-'));
  homes.add(home);
  return home;
}

/** Removes the homes tempHome made (after the file's own teardown stopped what used them). */
export function removeTempHomes(): void {
  for (const home of homes) {
    try {
      rmSync(home, { recursive: true, force: true });
    } catch {
      // a process killed a moment ago may still write there: the OS temp dir's cleanup takes the rest
    }
  }
  homes.clear();
}

/**
 * The machine-wide lock folder (platform token claims) of the gateways this test process starts:
 * its own, so two test files running at once with the same fake bot token never refuse each
 * other's platform (a caller's HERMES_LOCK_DIR wins).
 */
export function testLockDir(): { HERMES_LOCK_DIR: string } {
  return { HERMES_LOCK_DIR: join(tmpdir(), `hermes-test-locks-${process.pid}`) };
}

const startsGateway = (args: readonly string[]): boolean =>
  args[0] === 'gateway' && ['run', 'start', 'restart'].includes(args[1] ?? '');

/** Runs the built CLI as a child process (async, so in-process fakes keep answering). */
export function runHermes(
  args: string[],
  options: { env?: Record<string, string>; input?: string; timeoutMs?: number; cwd?: string } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) {
      // the caller's credentials never leak into a test (web provider keys would reach real services)
      if (
        v !== undefined &&
        !/^(OPENAI_|HERMES_|TELEGRAM_|DISCORD_|SLACK_|SEARXNG_|BRAVE_|TAVILY_|FIRECRAWL_|EXA_|PARALLEL_|XAI_|DDGS_)/.test(
          k,
        )
      ) {
        env[k] = v;
      }
    }
    const child = spawn(process.execPath, [HERMES_BIN, ...args], {
      // a gateway it starts gets this process's lock folder (not written into service files: install)
      env: { ...env, ...(startsGateway(args) ? testLockDir() : {}), ...options.env },
      cwd: options.cwd ?? process.cwd(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * `hermes trust approve --all --yes` for a prepared home (the operator's consent for its plugins,
 * MCP servers, skills and hook hatches: docs/security.md); throws when it fails.
 */
export function trustAll(env: Record<string, string>, cwd?: string): void {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(OPENAI_|HERMES_)/.test(k)) base[k] = v;
  const r = spawnSync(process.execPath, [HERMES_BIN, 'trust', 'approve', '--all', '--yes'], {
    env: { ...base, ...env },
    cwd: cwd ?? process.cwd(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status !== 0) throw new Error(`hermes trust approve --all failed (${r.status}): ${r.stderr}`);
}

/** trustAll for a home alone (HERMES_HOME=home). */
export const trustHome = (home: string, cwd?: string): void => trustAll({ HERMES_HOME: home }, cwd);
