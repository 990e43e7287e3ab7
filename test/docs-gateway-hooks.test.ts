// docs/gateway-hooks.md: every hook sample in it loads as a gateway hook and runs on its events,
// and its events table is the gateway's event list.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { discoverGatewayHooks, testGatewayHooks } from '@hermes/gateway';
import { createModuleImporter } from '@hermes/plugins';
import { GATEWAY_EVENT_EXAMPLES, GATEWAY_EVENTS, silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { pluginAliases } from '../apps/hermes/src/plugin-sources.js';

const doc = readFileSync(fileURLToPath(new URL('../docs/gateway-hooks.md', import.meta.url)), 'utf8');

/** The fenced blocks that start with a `file: hooks/...` comment, written under `home`. */
function writeSamples(home: string): string[] {
  const written: string[] = [];
  const re = /^```\w*\n(?:\/\/|#) file: (hooks\/\S+)\n([\s\S]*?)^```/gm;
  for (let m = re.exec(doc); m !== null; m = re.exec(doc)) {
    const [, path = '', body = ''] = m;
    mkdirSync(dirname(join(home, path)), { recursive: true });
    writeFileSync(join(home, path), body);
    written.push(path);
  }
  return written;
}

describe('docs/gateway-hooks.md', () => {
  it('its sample hooks are valid gateway hooks and run on their events', async () => {
    const home = mkdtempSync(join(tmpdir(), 'hermes-docs-ghooks-'));
    expect(writeSamples(home)).toHaveLength(8);
    const { hooks, skipped } = discoverGatewayHooks(join(home, 'hooks'));
    expect(skipped).toEqual([]);
    expect(hooks.map((h) => h.name)).toEqual(['activity-log', 'command-logger', 'long-task-alert', 'session-webhook']);
    const importer = await createModuleImporter(pluginAliases());
    const options = { importer, logger: silentLogger, home };
    const step = await testGatewayHooks(join(home, 'hooks'), 'agent:step', { ...options, context: { iteration: 10 } });
    expect(step.map((r) => [r.hook, r.ok])).toEqual([
      ['activity-log', true],
      ['long-task-alert', true],
    ]);
    expect(step[1]?.calls).toEqual([
      'send home: ⚠️ Agent has been running for 10 steps. Last tools: terminal, read_file',
    ]);
    const command = await testGatewayHooks(join(home, 'hooks'), 'command:new', options);
    expect(command.map((r) => [r.hook, r.ok])).toEqual([['command-logger', true]]);
    expect(readFileSync(join(home, 'logs', 'command_usage.jsonl'), 'utf8')).toContain('"command":"new"');
    expect(readFileSync(join(home, 'logs', 'activity.log'), 'utf8')).toContain('"event":"agent:step"');
  });

  it('its events table lists exactly the events the gateway fires, with their context keys', () => {
    const rows = doc.match(/^\| `([a-z]+:[a-z*]+)` \|.*$/gm) ?? [];
    const table = new Map(
      rows.map((row) => {
        const cells = row.split('|').map((c) => c.trim());
        const keys = [...(cells[3] ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
        return [(cells[1] ?? '').replace(/`/g, ''), keys.sort()];
      }),
    );
    expect([...table.keys()]).toEqual([...GATEWAY_EVENTS, 'command:*']);
    for (const event of GATEWAY_EVENTS) {
      expect(table.get(event), event).toEqual(Object.keys(GATEWAY_EVENT_EXAMPLES[event]).sort());
    }
    expect(table.get('command:*')).toEqual(Object.keys(GATEWAY_EVENT_EXAMPLES.command).sort());
  });
});
