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

describe('installProcessGuards with a claimer', () => {
  it('errors the claimer takes are not logged here and do not end the process', async () => {
    const dir = tempDir();
    const handle = createLogger({ dir, level: 'info', secrets: [] });
    const before = process.listeners('uncaughtException');
    const seen: string[] = [];
    uninstall = installProcessGuards(handle.logger, {
      claim: (err, kind) => {
        seen.push(`${kind}: ${(err as Error).message}`);
        return (err as Error).message.startsWith('plugin');
      },
    });
    const added = process.listeners('uncaughtException').filter((l) => !before.includes(l));
    expect(added).toHaveLength(1);
    for (const listener of added) listener(new Error('plugin timer threw'), 'uncaughtException');
    process.emit('unhandledRejection', new Error('plugin rejection'), Promise.resolve());
    process.emit('unhandledRejection', new Error('our own'), Promise.resolve());
    await handle.flush();
    expect(seen).toEqual(['exception: plugin timer threw', 'rejection: plugin rejection', 'rejection: our own']);
    expect(readLines(join(dir, 'gateway.log')).map((l) => l.msg)).toEqual(['unhandled promise rejection']);
    await handle.close();
  });
});

describe('the exit guard', () => {
  it('process.exit throws ExitRefusedError while installed; exitProcess is the way out', async () => {
    const { ExitRefusedError, installExitGuard } = await import('@hermes/protocol');
    const original = process.exit;
    const remove = installExitGuard();
    try {
      expect(() => process.exit(3)).toThrow(ExitRefusedError);
      expect(() => process.exit(3)).toThrow('process.exit(3) refused: only Hermes itself may end the process');
    } finally {
      remove();
    }
    expect(process.exit).toBe(original);
  });
});
