// The kit's intake runner: start() until connected or failed, stop() after the loop and every send.
import { describe, expect, it } from 'vitest';
import { recordingLogger } from '../../../../test/contract/recorders.js';
import { waitFor } from '../../../../test/helpers/wait-for.js';
import { createInFlight, createIntakeRunner, createStatusTracker } from '../../src/index.js';

function runner() {
  const { logger, lines } = recordingLogger();
  const status = createStatusTracker(logger, { platform: 'echo' });
  const inFlight = createInFlight();
  return { lines, status, inFlight, intake: createIntakeRunner({ platform: 'echo', logger, status, inFlight }) };
}

describe('createIntakeRunner', () => {
  it('starts once, resolves when connected, and stops after the loop and the in-flight work', async () => {
    const { status, inFlight, intake } = runner();
    const order: string[] = [];
    let release: () => void = () => {};
    await intake.start(async (signal) => {
      status.set('connected');
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      order.push('loop ended');
    });
    expect(status.get().state).toBe('connected');
    await expect(intake.start(async () => {})).rejects.toThrow('echo: already started');
    void inFlight.track(new Promise<void>((resolve) => (release = resolve))).then(() => order.push('send settled'));
    const stopped = intake.stop(async () => void order.push('closing'));
    void waitFor(() => order.includes('loop ended'), { what: 'the loop ended' }).then(() => release());
    await stopped;
    expect(order).toEqual(['closing', 'loop ended', 'send settled']);
    expect([status.get().state, intake.signal?.aborted]).toEqual(['stopped', true]);
  });

  it('shows a loop that throws as error, logged, and start() resolves', async () => {
    const { lines, status, intake } = runner();
    await intake.start(async () => {
      throw new Error('bad token');
    });
    expect(status.get()).toMatchObject({ state: 'error', error: 'bad token' });
    expect(lines.some((line) => line.msg === 'echo: intake loop failed')).toBe(true);
    await intake.stop();
  });
});
