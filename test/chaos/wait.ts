// Waiting in the chaos run: sleeps, polling a condition, the platforms' states in /health.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

export async function platformStates(home: string): Promise<Record<string, string>> {
  try {
    const lock = JSON.parse(readFileSync(join(home, 'gateway.lock'), 'utf8')) as { url?: string };
    const health = (await (await fetch(`${lock.url}/health`)).json()) as {
      platforms?: Record<string, { state: string }>;
    };
    return Object.fromEntries(Object.entries(health.platforms ?? {}).map(([k, v]) => [k, v.state]));
  } catch {
    return {};
  }
}
