// SIGUSR2 from `hermes cron ...` to the running gateway: kept while the gateway is being built (node's
// default would end the process), passed on once it is ready, and off once disposed.
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/helpers/wait-for.js';
import { handleCronSignals } from '../src/service/cron-signal.js';

let dispose: (() => void) | undefined;
afterEach(() => dispose?.());

describe('the cron signal of gateway run', () => {
  it('keeps a signal that arrives before the gateway is ready and passes each later one on', async () => {
    const signals = handleCronSignals();
    dispose = () => signals.dispose();
    let seen = 0;
    const target = { cronChanged: () => void seen++ };
    process.kill(process.pid, 'SIGUSR2');
    // delivered asynchronously: wait until node has run the handler (the listener count stays 1)
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toBe(0);
    signals.ready(target);
    expect(seen).toBe(1);
    process.kill(process.pid, 'SIGUSR2');
    await waitFor(() => seen === 2, { what: 'the second signal passed on' });
    signals.dispose();
    expect(process.listenerCount('SIGUSR2')).toBe(0);
  });
});
