// After stop() and closing the fake, a real process exits by itself: no timer, socket or heartbeat left behind.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/run-then-stop.ts', import.meta.url));
const EXIT_DEADLINE_MS = 15_000;

describe('discord adapter lifecycle', () => {
  it('leaves no open handle after stop()', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const started = Date.now();
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_DEADLINE_MS);
      child.once('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    expect(output).toContain('done with file, 2 sent');
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(EXIT_DEADLINE_MS);
  });
});
