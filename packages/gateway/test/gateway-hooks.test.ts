import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModuleImporter, HookBus } from '@hermes/plugins';
import { gatewayEventExample, type Logger, silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { flushImmediates, waitFor } from '../../../test/helpers/wait-for.js';
import { hookApi } from '../src/gateway-hooks/api.js';
import { attachGatewayHooks } from '../src/gateway-hooks/attach.js';
import { discoverGatewayHooks } from '../src/gateway-hooks/discover.js';
import { GatewayEvents } from '../src/gateway-hooks/gateway-events.js';
import { loadGatewayHooks } from '../src/gateway-hooks/load.js';
import { parseHookManifest } from '../src/gateway-hooks/manifest.js';
import { testGatewayHooks } from '../src/gateway-hooks/test-hooks.js';

function hooksDir(hooks: Record<string, { manifest?: string; handler?: string; file?: string }>): string {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-ghooks-'));
  for (const [name, h] of Object.entries(hooks)) {
    mkdirSync(join(dir, name));
    if (h.manifest !== undefined) writeFileSync(join(dir, name, 'HOOK.yaml'), h.manifest);
    if (h.handler !== undefined) writeFileSync(join(dir, name, h.file ?? 'handler.ts'), h.handler);
  }
  return dir;
}

const manifest = (name: string, events: string[]) =>
  `name: ${name}\ndescription: ${name}\nevents:\n${events.map((e) => `  - "${e}"`).join('\n')}\n`;

function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const log = (a: unknown, b?: unknown) => lines.push(typeof a === 'string' ? a : String(b));
  const logger: Logger = {
    trace: log,
    debug: log,
    info: log,
    warn: log,
    error: log,
    fatal: log,
    child: () => logger,
  } as unknown as Logger;
  return { logger, lines };
}

describe('HOOK.yaml', () => {
  it('accepts events, command names and prefix wildcards; warns on unknown keys', () => {
    const m = parseHookManifest(
      'name: x\ndescription: d\nevents: [agent:end, command:new, session:*]\nextra: 1\n',
      'H',
    );
    expect(m).toMatchObject({ name: 'x', events: ['agent:end', 'command:new', 'session:*'] });
    expect(m.warnings[0]).toContain('extra: unknown key');
  });

  it.each([
    ['description: d\nevents: [agent:end]\n', 'name: expected a non-empty string'],
    ['name: x\nevents: [agent:end]\n', 'description: expected a string'],
    ['name: x\ndescription: d\nevents: []\n', 'events: expected a non-empty list'],
    ['name: x\ndescription: d\nevents: [agent:ends]\n', 'did you mean "agent:end"?'],
    ['name: x\ndescription: d\nevents: [bogus:*]\n', 'unknown gateway event "bogus:*"'],
    ['name: [\n', 'not valid YAML'],
  ])('refuses %j with a message naming the key', (text, message) => {
    expect(() => parseHookManifest(text, '/h/HOOK.yaml')).toThrow(message);
  });
});

describe('discovery', () => {
  it('loads valid folders in name order and skips invalid ones with a reason', () => {
    const dir = hooksDir({
      'b-second': { manifest: manifest('second', ['agent:end']), handler: 'export function handle() {}' },
      'a-first': {
        manifest: manifest('first', ['command:*']),
        handler: 'export function handle() {}',
        file: 'handler.mjs',
      },
      'c-nohandler': { manifest: manifest('third', ['agent:end']) },
      'd-nomanifest': { handler: 'export function handle() {}' },
      'e-dup': { manifest: manifest('first', ['agent:end']), handler: 'export function handle() {}' },
    });
    const { hooks, skipped } = discoverGatewayHooks(dir);
    expect(hooks.map((h) => [h.name, h.handlerFile.split('/').pop()])).toEqual([
      ['first', 'handler.mjs'],
      ['second', 'handler.ts'],
    ]);
    expect(skipped.map((s) => s.reason)).toEqual([
      expect.stringContaining('no handler'),
      expect.stringContaining('no HOOK.yaml'),
      expect.stringContaining('name "first" is already used'),
    ]);
    expect(discoverGatewayHooks(join(dir, 'missing'))).toEqual({ hooks: [], skipped: [] });
  });
});

describe('loading and running', () => {
  it('a hook gets the event, its context and its API; bad handlers are skipped at load', async () => {
    const dir = hooksDir({
      good: {
        manifest: manifest('good', ['agent:*', 'agent:end']),
        handler: `export async function handle(event, context, hermes) {
          globalThis.__calls = (globalThis.__calls ?? []).concat([[event, context.platform, hermes.name]]);
          await hermes.send('home', 'hello ' + event);
        }`,
      },
      noexport: { manifest: manifest('noexport', ['agent:end']), handler: 'export const x = 1;' },
      syntax: { manifest: manifest('syntax', ['agent:end']), handler: 'export function handle( {' },
    });
    const importer = await createModuleImporter();
    const { logger, lines } = recordingLogger();
    const { loaded, failed } = await loadGatewayHooks(discoverGatewayHooks(dir).hooks, importer, logger);
    expect(loaded.map((h) => h.name)).toEqual(['good']);
    expect(failed.map((f) => f.reason)).toEqual([
      expect.stringContaining('exports no handle'),
      expect.stringContaining('failed to load'),
    ]);
    expect(lines.join('\n')).toContain('gateway hook syntax skipped');
    const sent: string[] = [];
    const events = new GatewayEvents(new HookBus());
    attachGatewayHooks(events, loaded, (hook) =>
      hookApi(
        {
          home: dir,
          logger: silentLogger,
          send: async (target, text) => {
            sent.push(`${target}:${text}`);
            return { ok: true };
          },
          runAgent: async () => ({ status: 'completed', text: 'x' }),
        },
        hook.name,
      ),
    );
    events.emit('agent:end', { ...gatewayEventExample('agent:end'), platform: 'discord' });
    events.emit('session:start', { ...gatewayEventExample('session:start'), platform: 'discord' });
    await waitFor(() => sent.length > 0, { what: "the hook's send" });
    await flushImmediates(); // a second call of the same emit would have run by now
    // agent:* and agent:end overlap: still one call per event
    expect((globalThis as { __calls?: unknown[] }).__calls).toEqual([['agent:end', 'discord', 'good']]);
    expect(sent).toEqual(['home:hello agent:end']);
  });

  it('a throwing or hanging handler is logged by name and event on the hook bus; emit never waits for it', async () => {
    const { logger, lines } = recordingLogger();
    const events = new GatewayEvents(new HookBus({ logger }), { timeoutMs: 50 });
    events.on(
      'agent:end',
      () => {
        throw new Error('boom');
      },
      'thrower',
    );
    events.on('agent:end', () => new Promise(() => {}), 'hanger');
    const started = performance.now();
    events.emit('agent:end', gatewayEventExample('agent:end'));
    expect(performance.now() - started).toBeLessThan(5);
    await waitFor(() => lines.some((l) => l.includes('gateway:hanger on agent:end timed out')), {
      what: "the hanger's timeout",
    });
    expect(lines).toContain('hook gateway_event callback of gateway:thrower on agent:end failed: boom; skipped');
    expect(lines).toContain(
      'hook gateway_event callback of gateway:hanger on agent:end timed out after 50 ms; skipped',
    );
  });

  it('testGatewayHooks fires the matching hooks with the example context, dry-run', async () => {
    const dir = hooksDir({
      alert: {
        manifest: manifest('alert', ['agent:step']),
        handler: `export async function handle(event, ctx, hermes) {
          if (ctx.iteration === 3) await hermes.send('telegram', 'step ' + ctx.iteration);
          return { seen: ctx.tool_names };
        }`,
      },
      other: { manifest: manifest('other', ['command:*']), handler: 'export function handle() {}' },
    });
    const results = await testGatewayHooks(dir, 'agent:step', {
      importer: await createModuleImporter(),
      logger: silentLogger,
      home: dir,
    });
    expect(results).toEqual([
      expect.objectContaining({
        hook: 'alert',
        ok: true,
        detail: '{"seen":["terminal","read_file"]}',
        calls: ['send telegram: step 3'],
      }),
    ]);
  });
});
