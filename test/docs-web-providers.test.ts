// docs/web-providers.md is runnable and true: its example provider is the bundled brave-free file for file, it loads
// as a user plugin overriding the bundled one and answers web_search from a Brave API fake; its tables list every
// bundled provider with its env vars and every member of the interface; its config samples are valid.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWebTools, ToolRegistry } from '@hermes/agent';
import { loadConfig } from '@hermes/config';
import { HookBus, loadPlugins, PluginRegistries, readManifest } from '@hermes/plugins';
import { silentLogger, type ToolContext } from '@hermes/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBrave } from './fakes/web/brave-server.js';
import type { HttpFake } from './fakes/web/http-fake.js';
import { fileBlocks } from './helpers/doc-blocks.js';

const DOC = readFileSync(fileURLToPath(new URL('../docs/web-providers.md', import.meta.url)), 'utf8');
const PLUGINS = fileURLToPath(new URL('../plugins', import.meta.url));
const WEB = join(PLUGINS, 'web');
const SDK = fileURLToPath(new URL('../packages/plugin-sdk/src/index.ts', import.meta.url));
const KEY = 'docs-brave-key-0123456789';

const blocks = fileBlocks(DOC);
let brave: HttpFake;
let home = '';
beforeAll(async () => {
  brave = await startFakeBrave({ key: KEY });
  home = mkdtempSync(join(tmpdir(), 'hermes-docs-web-'));
});
afterAll(async () => {
  await brave.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('docs/web-providers.md', () => {
  it('shows the bundled brave-free provider, file for file', () => {
    expect([...blocks.keys()].sort()).toEqual(['index.ts', 'plugin.yaml', 'provider.ts']);
    for (const [file, body] of blocks) expect(body, file).toBe(readFileSync(join(WEB, 'brave-free', file), 'utf8'));
  });

  it('its example, dropped into HERMES_HOME/plugins/web/brave-free and enabled, overrides the bundled one and searches', async () => {
    const dir = join(home, 'plugins', 'web', 'brave-free');
    mkdirSync(dir, { recursive: true });
    for (const [file, body] of blocks) writeFileSync(join(dir, file), body);
    const registries = new PluginRegistries();
    const env = { BRAVE_SEARCH_API_KEY: KEY, BRAVE_SEARCH_BASE_URL: brave.url };
    const records = await loadPlugins({
      dirs: [
        { dir: PLUGINS, source: 'bundled' },
        { dir: join(home, 'plugins'), source: 'user' },
      ],
      enabled: ['web/brave-free'],
      disabled: [],
      env,
      tools: new ToolRegistry(),
      hooks: new HookBus(),
      logger: silentLogger,
      host: { registries },
      aliases: { '@hermes/plugin-sdk': SDK },
    });
    expect(records.find((r) => r.key === 'web/brave-free')).toMatchObject({
      source: 'user',
      state: 'enabled',
      error: null,
    });
    expect(registries.webSearchProviders.get('brave-free')?.plugin).toBe('web/brave-free');

    const saved = { ...process.env };
    Object.assign(process.env, env); // the provider reads process.env, as in a real run
    try {
      const [webSearch] = createWebTools({
        providers: registries.webSearchProviders,
        config: {
          search_backend: 'brave-free',
          timeout_s: 5,
          crawl_timeout_s: 5,
          max_page_bytes: 10_000,
          max_content_chars: 1_000,
        },
        allowPrivateUrls: false,
      });
      const out = (await webSearch?.handler({ query: 'hermes plugins', limit: 1 }, {
        signal: new AbortController().signal,
      } as ToolContext)) as {
        success: boolean;
        provider: string;
        data: { web: { title: string }[] };
      };
      expect(out).toMatchObject({ success: true, provider: 'brave-free' });
      expect(out.data.web.map((h) => h.title)).toEqual(['Writing Hermes plugins']);
      expect(brave.requests.at(-1)?.headers['x-subscription-token']).toBe(KEY);
    } finally {
      for (const k of Object.keys(env)) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
  });

  it('lists every bundled provider with the env vars its manifest requires', async () => {
    const section = DOC.slice(DOC.indexOf('## Bundled providers'));
    const rows = new Map(
      [...section.matchAll(/^\| `([a-z0-9-]+)` \| [^|]+ \| ([^|]+) \|/gm)].map((m) => [m[1] ?? '', m[2] ?? '']),
    );
    const folders = readdirSync(WEB).filter((d) => existsSync(join(WEB, d, 'plugin.yaml')));
    expect([...rows.keys()].sort()).toEqual(folders.sort());
    for (const folder of folders) {
      const manifest = await readManifest(join(WEB, folder, 'plugin.yaml'));
      expect(manifest.providesWebProviders).toEqual([folder]);
      for (const name of manifest.requiresEnv) expect(rows.get(folder), folder).toContain(`\`${name}\``);
    }
  });

  it('documents every member of the WebSearchProvider interface', () => {
    const source = readFileSync(fileURLToPath(new URL('../packages/protocol/src/web.ts', import.meta.url)), 'utf8');
    const body = /export interface WebSearchProvider \{([\s\S]*?)\n\}/.exec(source)?.[1] ?? '';
    const members = [...body.matchAll(/^\s+(?:readonly )?(\w+)\??[(:]/gm)].map((m) => m[1]);
    expect(members.length).toBeGreaterThanOrEqual(10);
    const reference = DOC.slice(DOC.indexOf('## Interface reference'), DOC.indexOf('## Response shape'));
    for (const member of members) expect(reference).toMatch(new RegExp(`^\\| \`${member}[(\`]`, 'm'));
  });

  it('its config samples are valid config.yaml without warnings', () => {
    const samples = [...DOC.matchAll(/^```yaml\n([\s\S]*?)^```/gm)]
      .map((m) => m[1] ?? '')
      .filter((b) => !b.startsWith('# file:'));
    expect(samples.length).toBeGreaterThan(0);
    for (const sample of samples) {
      const dir = mkdtempSync(join(tmpdir(), 'hermes-docs-web-cfg-'));
      writeFileSync(join(dir, 'config.yaml'), sample);
      expect(loadConfig({ home: dir, env: {} }).warnings.map((w) => w.message)).toEqual([]);
    }
  });
});
