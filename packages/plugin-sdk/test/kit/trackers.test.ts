// The kit's status tracker (the state /health shows, logged once per change) and in-flight tracker.
import type { Logger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { recordingLogger } from '../../../../test/contract/recorders.js';
import { createAdapterKit, createInFlight, createStatusTracker } from '../../src/index.js';

/** The shared recording logger, and its lines as `level message`. */
function recorder(): { logger: Logger; said(): string[] } {
  const { logger, lines } = recordingLogger();
  return { logger, said: () => lines.map((line) => `${line.level} ${line.msg}`) };
}

describe('createStatusTracker', () => {
  it('starts disconnected, keeps since per change, logs each change once with the platform name', async () => {
    const { logger, said } = recorder();
    let clock = 100;
    const status = createStatusTracker(logger, { platform: 'echo', now: () => clock });
    expect(status.get()).toEqual({ state: 'disconnected', since: 100 });
    const connected = status.when(['connected']);
    clock = 200;
    status.set('connecting');
    status.set('connecting');
    clock = 300;
    status.set('connected');
    await connected;
    expect(status.get()).toEqual({ state: 'connected', since: 300 });
    status.set('error', 'socket closed');
    status.set('error', 'socket closed again');
    expect(status.get()).toMatchObject({ state: 'error', error: 'socket closed again', since: 300 });
    expect(said()).toEqual([
      'info echo: connecting',
      'info echo: connected',
      'warn echo: connection error',
      'debug echo: still error',
    ]);
  });

  it('says the platform’s own words on error, and when() resolves at once for the current state', async () => {
    const { logger, said } = recorder();
    const status = createStatusTracker(logger, { platform: 'echo', errorMessage: 'lost; retrying' });
    status.set('error', 'x');
    await status.when(['error', 'connected']);
    expect(said()).toEqual(['warn echo: lost; retrying']);
  });
});

describe('createInFlight', () => {
  it('hands the task back unchanged and settles after every task, failed ones included', async () => {
    const inFlight = createInFlight();
    let release: () => void = () => {};
    const slow = inFlight.track(new Promise<string>((resolve) => (release = () => resolve('done'))));
    const failed = inFlight.track(Promise.reject(new Error('boom')));
    await expect(failed).rejects.toThrow('boom');
    let settled = false;
    const all = inFlight.settled().then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    release();
    await expect(slow).resolves.toBe('done');
    await all;
    expect(settled).toBe(true);
    await inFlight.settled(); // nothing left: at once
  });
});

describe('createAdapterKit', () => {
  it('fills the real seams in and keeps the test ones', async () => {
    const { logger } = recorder();
    const real = createAdapterKit(logger, {}, { platform: 'echo' });
    expect(real.now).toBe(Date.now);
    expect(real.random).toBe(Math.random);
    const sleeps: number[] = [];
    const kit = createAdapterKit(
      logger,
      { now: () => 7, random: () => 0.5, sleep: async (ms) => void sleeps.push(ms) },
      { platform: 'echo' },
    );
    await kit.sleep(5, new AbortController().signal);
    expect([kit.now(), kit.random(), sleeps, kit.status.get()]).toEqual([
      7,
      0.5,
      [5],
      { state: 'disconnected', since: 7 },
    ]);
  });
});
