import { join } from 'node:path';
import { createLogger, installProcessGuards, REDACTED } from '@hermes/logging';
import { afterEach, describe, expect, it } from 'vitest';
import { readLines, tempDir } from './helpers.js';

const SECRET = 'guard-secret-value-99';
let uninstall: (() => void) | null = null;

afterEach(() => {
  uninstall?.();
  uninstall = null;
});

describe('installProcessGuards', () => {
  it('logs unhandled rejections and uncaught exceptions, redacted, and can be removed', async () => {
    const dir = tempDir();
    const handle = createLogger({ dir, level: 'info', secrets: [SECRET] });
    const rejections = process.listenerCount('unhandledRejection');
    const monitorsBefore = process.listeners('uncaughtExceptionMonitor');
    uninstall = installProcessGuards(handle.logger);
    expect(process.listenerCount('unhandledRejection')).toBe(rejections + 1);

    process.emit('unhandledRejection', new Error(`lost promise ${SECRET}`), Promise.resolve());
    process.emit('unhandledRejection', `plain reason ${SECRET}`, Promise.resolve());
    // Node's typings have no emit overload for the monitor event: call the listener we added.
    const added = process.listeners('uncaughtExceptionMonitor').filter((l) => !monitorsBefore.includes(l));
    expect(added).toHaveLength(1);
    for (const listener of added) listener(new Error(`crash sk-abcdefghijklmnop1234`), 'uncaughtException');
    await handle.flush();

    const lines = readLines(join(dir, 'gateway.log'));
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [50, 'unhandled promise rejection'],
      [50, 'unhandled promise rejection'],
      [60, 'uncaught exception'],
    ]);
    expect(lines[0]?.err).toMatchObject({ message: `lost promise ${REDACTED}` });
    expect(lines[1]?.err).toBe(`plain reason ${REDACTED}`);
    expect(lines[2]).toMatchObject({ origin: 'uncaughtException', err: { message: `crash ${REDACTED}` } });
    expect(JSON.stringify(lines)).not.toContain(SECRET);

    uninstall();
    uninstall = null;
    expect(process.listenerCount('unhandledRejection')).toBe(rejections);
    expect(process.listeners('uncaughtExceptionMonitor')).toEqual(monitorsBefore);
    await handle.close();
  });
});
