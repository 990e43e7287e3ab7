/**
 * The platform SDKs (grammy, discord.js, @slack/bolt) load when their platform starts, not when
 * the plugin is imported, registered or its adapter created: the gateway does all of that before it
 * listens, and discord.js and Bolt alone took about 0.6 s of CPU there. A static import of the SDK
 * from the plugin's entry, factory or a module they import brings it back; this test sees it. It
 * runs the bundled plugins' builds (dist/), as the gateway does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCodeResolving } from '../helpers/resolved-modules.js';

const dir = mkdtempSync(join(tmpdir(), 'hermes-lazy-sdk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The packages (under node_modules) a fresh node process resolves while running `code` (ESM); its stdout. */
function packagesResolvedBy(code: string): { packages: Set<string>; stdout: string } {
  const run = runCodeResolving(code);
  expect(run.status, run.stderr).toBe(0);
  return { packages: run.packages, stdout: run.stdout };
}

const PLATFORMS = [
  { name: 'telegram', sdk: 'grammy', factory: 'telegramFactory', env: { TELEGRAM_BOT_TOKEN: '1:lazy' } },
  { name: 'discord', sdk: 'discord.js', factory: 'discordFactory', env: { DISCORD_BOT_TOKEN: 'lazy' } },
  {
    name: 'slack',
    sdk: '@slack/bolt',
    factory: 'slackFactory',
    env: { SLACK_BOT_TOKEN: 'xoxb-lazy', SLACK_APP_TOKEN: 'xapp-lazy' },
  },
];

/** Imports the plugin's build, registers it, creates its adapter (and, when `send`, sends through it). */
function script(platform: (typeof PLATFORMS)[number], send: boolean): string {
  const entry = new URL(`../../plugins/platforms/${platform.name}/dist/index.js`, import.meta.url).href;
  return `
const plugin = await import(${JSON.stringify(entry)});
const registered = [];
plugin.register({ registerPlatform: (r) => registered.push(r) });
const logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {}, child() { return logger; } };
const adapter = plugin.${platform.factory}.create({
  settings: { api_root: 'http://127.0.0.1:9', api_base: 'http://127.0.0.1:9', api_url: 'http://127.0.0.1:9/api/' },
  env: ${JSON.stringify(platform.env)},
  logger, cacheDir: ${JSON.stringify(dir)}, state: { get() {}, set() {} }, commands: () => [], route() {},
});
console.log(JSON.stringify({ registered: registered.map((r) => r.name), name: adapter.name, state: adapter.status().state }));
${send ? `await adapter.send({ chatId: '1', text: 'x', formatted: false }).catch(() => {}); await adapter.stop();` : ''}
`;
}

describe.each(PLATFORMS)('the $name plugin', (platform) => {
  it(`is imported, registered and its adapter created without loading ${platform.sdk}`, () => {
    const { packages, stdout } = packagesResolvedBy(script(platform, false));
    expect(JSON.parse(stdout)).toEqual({ registered: [platform.name], name: platform.name, state: 'disconnected' });
    expect(packages.has(platform.sdk)).toBe(false);
    expect([...packages].filter((p) => ['grammy', 'discord.js', '@slack/bolt'].includes(p))).toEqual([]);
  }, 30_000);

  it(`loads ${platform.sdk} once the adapter is used (else the test above proves nothing)`, () => {
    const { packages } = packagesResolvedBy(script(platform, true));
    expect(packages.has(platform.sdk)).toBe(true);
  }, 30_000);
});
