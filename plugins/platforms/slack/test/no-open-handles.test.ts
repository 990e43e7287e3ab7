// After stop() and closing the fake, a real process exits by itself: no timer, socket or poll left behind.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/run-then-stop.ts', import.meta.url));

describe('slack adapter lifecycle', () => {
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
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    expect(output).toContain('done with file');
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
