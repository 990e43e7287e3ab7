// Plugin faults: a refused process.exit fails register(); errors are traced to their plugin (its
// scope around register() and hook callbacks, or a stack frame in its folder); repeated faults
// turn the plugin's hooks off.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolRegistry } from '@hermes/agent';
import { installExitGuard, type Logger } from '@hermes/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { HookBus, loadPlugins, PluginFaults, PluginRegistries, pluginScope } from '../src/index.js';

function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const log = (a: unknown, b?: unknown) => lines.push(typeof a === 'string' ? a : String(b));
  const logger: Logger = { trace: log, debug: log, info: log, warn: log, error: log, fatal: log, child: () => logger };
  return { logger, lines };
}

let removeGuard: (() => void) | null = null;
afterEach(() => {
  removeGuard?.();
  removeGuard = null;
});

function setup(limit = 3) {
  const { logger, lines } = recordingLogger();
  let now = 0;
  const hooks: { bus: HookBus | null } = { bus: null };
  const faults = new PluginFaults({
    logger,
    limit,
    windowMs: 60_000,
    now: () => now,
    disableHooks: (plugin) => hooks.bus?.removeOwner({ source: 'plugin', name: plugin }),
  });
  const bus = new HookBus({
    logger,
    onError: (owner, hook, err) => faults.record(owner.name, `hook ${hook} failed: ${String(err)}`, { logged: true }),
  });
  hooks.bus = bus;
  return { logger, lines, faults, bus, tick: (ms: number) => (now += ms) };
}

describe('PluginFaults', () => {
  it('a plugin whose register() calls process.exit fails to load with a line naming it; the others load', async () => {
    const { logger, lines, faults, bus } = setup();
    const dir = mkdtempSync(join(tmpdir(), 'hermes-pfaults-'));
    for (const [name, body] of Object.entries({
      exiter: 'export function register() { process.exit(1); }',
      fine: 'export function register(ctx) { ctx.registerHook("on_session_start", () => {}); }',
    })) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'plugin.yaml'), `name: ${name}\nversion: 1.0.0\ndescription: t\n`);
      writeFileSync(join(dir, name, 'index.js'), body);
    }
    removeGuard = installExitGuard();
    const records = await loadPlugins({
      dirs: [{ dir, source: 'user' }],
      enabled: ['exiter', 'fine'],
      disabled: [],
      env: {},
      tools: new ToolRegistry(),
      hooks: bus,
      logger,
      host: { registries: new PluginRegistries() },
      faults,
    });
    expect(records.map((r) => [r.key, r.state])).toEqual([
      ['exiter', 'failed'],
      ['fine', 'enabled'],
    ]);
    expect(records[0]?.error).toBe('process.exit(1) refused: only Hermes itself may end the process');
    expect(lines).toContain(
      'plugin exiter failed to load: process.exit(1) refused: only Hermes itself may end the process',
    );
    // its folder is tracked: an error from a frame in it is traced to it
    const err = new Error('from a timer');
    err.stack = `Error: from a timer\n    at Timeout._onTimeout (${join(dir, 'exiter', 'index.js')}:1:30)`;
    expect(faults.attribute(err)).toBe('exiter');
    expect(faults.attribute(new Error('ours'))).toBe(null);
  });

  it('a hook callback calling process.exit fails like a throwing callback and counts as a fault', async () => {
    const { lines, bus } = setup();
    removeGuard = installExitGuard();
    bus.register('on_session_start', () => process.exit(2), { source: 'plugin', name: 'quitter' });
    await bus.invoke('on_session_start', { sessionId: 's', model: 'm', platform: 'cli' });
    expect(lines).toContain(
      'hook on_session_start callback of plugin:quitter failed: process.exit(2) refused: only Hermes itself may end the process; skipped',
    );
  });

  it('traces errors left behind by a hook callback (timer, lost promise) to its plugin through its scope', async () => {
    const { faults } = setup();
    const seen: (string | null)[] = [];
    await new Promise<void>((resolve) => {
      pluginScope.run('noisy', () => {
        setTimeout(() => {
          seen.push(faults.attribute(new Error('x')));
          resolve();
        }, 1);
      });
    });
    expect(seen).toEqual(['noisy']);
    expect(faults.claim(new Error('not a plugin'), 'exception')).toBe(false);
  });

  it("after the limit of faults in the window a plugin's hooks are turned off with one line", async () => {
    const { lines, faults, bus, tick } = setup(3);
    let calls = 0;
    bus.register(
      'on_session_start',
      async () => {
        calls += 1;
        throw new Error('async boom');
      },
      { source: 'plugin', name: 'flaky' },
    );
    bus.register('on_session_start', () => {}, { source: 'plugin', name: 'calm' });
    const payload = { session_id: 's', platform: 'cli' } as never;
    await bus.invoke('on_session_start', payload);
    tick(61_000); // the first fault leaves the window
    await bus.invoke('on_session_start', payload);
    pluginScope.run('flaky', () => faults.claim(new Error('from its timer'), 'exception'));
    expect(bus.count('on_session_start')).toBe(2);
    await bus.invoke('on_session_start', payload);
    expect(bus.count('on_session_start')).toBe(1);
    await bus.invoke('on_session_start', payload);
    expect(calls).toBe(3);
    expect(lines).toContain('plugin flaky fault: uncaught exception: from its timer');
    expect(lines.filter((l) => l.includes('hooks disabled'))).toEqual([
      'plugin flaky: hooks disabled after 3 faults within 1 min; restart the gateway to turn them on again',
    ]);
    expect(faults.disabled).toEqual(['flaky']);
  });

  it('runs a third-party plugin in its scope and a bundled one without it (no promise hooks for our own code)', async () => {
    const { logger, faults, bus } = setup();
    const seen: Record<string, (string | undefined)[]> = {};
    (globalThis as { __scopeSeen?: typeof seen }).__scopeSeen = seen;
    const body = (name: string) =>
      `export function register(ctx) {
        const { pluginScope } = globalThis.__scopeImports;
        (globalThis.__scopeSeen.${name} ??= []).push(pluginScope.getStore());
        ctx.registerHook("on_session_start", () => { globalThis.__scopeSeen.${name}.push(pluginScope.getStore()); });
      }`;
    (globalThis as { __scopeImports?: unknown }).__scopeImports = { pluginScope };
    const dirs = {
      user: mkdtempSync(join(tmpdir(), 'hermes-pscope-u-')),
      bundled: mkdtempSync(join(tmpdir(), 'hermes-pscope-b-')),
    };
    for (const [source, name] of [
      ['user', 'theirs'],
      ['bundled', 'ours'],
    ] as const) {
      mkdirSync(join(dirs[source], name));
      writeFileSync(join(dirs[source], name, 'plugin.yaml'), `name: ${name}\nversion: 1.0.0\ndescription: t\n`);
      writeFileSync(join(dirs[source], name, 'index.js'), body(name));
    }
    const records = await loadPlugins({
      dirs: [
        { dir: dirs.bundled, source: 'bundled' },
        { dir: dirs.user, source: 'user' },
      ],
      enabled: ['ours', 'theirs'],
      disabled: [],
      env: {},
      tools: new ToolRegistry(),
      hooks: bus,
      logger,
      host: { registries: new PluginRegistries() },
      faults,
    });
    expect(records.map((r) => [r.key, r.state])).toEqual([
      ['ours', 'enabled'],
      ['theirs', 'enabled'],
    ]);
    await bus.invoke('on_session_start', { session_id: 's', platform: 'cli' } as never);
    // register() and the hook callback: the user plugin in its scope, the bundled one in none
    expect(seen).toEqual({ theirs: ['theirs', 'theirs'], ours: [undefined, undefined] });
    // the bundled one is traced by its folder, and by a second one (its build's) when tracked
    const fromOurs = new Error('x');
    fromOurs.stack = `Error: x\n    at tick (${join(dirs.bundled, 'ours', 'index.js')}:1:1)`;
    expect(faults.attribute(fromOurs)).toBe('ours');
    faults.track('ours', '/opt/build/ours');
    const fromBuild = new Error('y');
    fromBuild.stack = 'Error: y\n    at tick (/opt/build/ours/index.js:1:1)';
    expect(faults.attribute(fromBuild)).toBe('ours');
  });
});
