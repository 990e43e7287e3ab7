// Gateway hooks cannot take the daemon down: `hermes gateway run` (the built CLI) with gateway hooks
// that throw from a timer, call process.exit and busy-loop for 20 s. The gateway stays up, /health
// answers at once while a hook loops, chat messages get their replies, and every fault is a log line
// naming the hook. (Plugins, which run in the main process: plugin-isolation.test.ts.) This file
// runs alone (vitest.config.ts): a hook holds a core while /health must answer within 1 s.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { tempHome, trustHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { waitFor } from '../helpers/wait-for.js';
import { health, logged, logMessages, useIsolationRig, writeHook } from './lib/isolation.js';

const rig = useIsolationRig();
const env = rig.env;

describe('gateway hooks run in a worker thread', () => {
  const tg = () => rig.tg();
  it('a throw from a timer, process.exit and a 20 s busy loop: the gateway stays up, answers /health at once and replies', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), stringify({ gateway: { hook_timeout_s: 1 }, hooks_auto_accept: true }));
    trustHome(home);
    writeHook(
      home,
      'a-timer-thrower',
      ['gateway:startup'],
      `export function handle() { setTimeout(() => { throw new Error('thrown from a hook timer'); }, 10); }\n`,
    );
    writeHook(home, 'b-exiter', ['command:*'], 'export function handle() { process.exit(7); }\n');
    writeHook(
      home,
      'c-spinner',
      ['agent:start'],
      `export function handle(_e, _c, hermes) {
  hermes.logger.info('c-spinner spinning');
  const end = Date.now() + 20_000;
  while (Date.now() < end) {}
}\n`,
    );
    const gw = await spawnGateway(env(home));
    try {
      await waitFor(() => logged(home, 'gateway hook a-timer-thrower crashed: thrown from a hook timer'), {
        what: 'the timer crash logged',
      });
      tg().pushMessage({ chatId: 42, userId: 42, text: '/status' });
      await waitFor(() => logged(home, 'gateway hook b-exiter worker thread exited with code 7'), {
        what: 'the exit logged',
        timeoutMs: 60_000, // a worker thread's start on a loaded 2-core machine (a spinner hook holds a core)
      });
      await waitFor(() => tg().sent.length > 0, { what: 'the /status reply' });

      tg().pushMessage({ chatId: 42, userId: 42, text: 'are you there?' });
      await waitFor(() => tg().sent.some((m) => m.text === 'still here'), { what: 'the reply' });
      // the spinner runs on agent:start: its worker is busy for 20 s, the gateway is not
      await waitFor(() => logged(home, 'c-spinner spinning'), { what: 'the spinner spinning' });
      const during = await health(gw.url);
      expect(during.status).toBe(200);
      expect(during.ms).toBeLessThan(1_000);
      await waitFor(() => logged(home, "gateway hook c-spinner blocks the hooks' worker thread"), {
        what: 'the busy worker terminated',
      });
      await waitFor(
        () =>
          logMessages(home).some((m) =>
            /gateway hook c-spinner worker thread was terminated; restarting in \d+ ms/.test(m),
          ),
        { what: 'the worker restarting' },
      );
      expect((await health(gw.url)).ms).toBeLessThan(1_000);
      expect(gw.child.exitCode).toBe(null);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    const messages = logMessages(home);
    // the main thread never stalled: the loops were in the worker
    expect(messages.filter((m) => m.startsWith('event loop blocked'))).toEqual([]);
  }, 120_000);
});
