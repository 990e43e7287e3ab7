// The platform guides match the adapters: every setting an adapter reads is in its guide's table
// (and nothing else is), every config sample loads without warnings, and each platform's sample
// settings are accepted by its real factory.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@hermes/config';
import { type PlatformFactory, silentLogger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { discordFactory } from '../plugins/platforms/discord/index.js';
import { emailFactory } from '../plugins/platforms/email/index.js';
import { matrixFactory } from '../plugins/platforms/matrix/index.js';
import { signalFactory } from '../plugins/platforms/signal/index.js';
import { slackFactory } from '../plugins/platforms/slack/index.js';
import { telegramFactory } from '../plugins/platforms/telegram/index.js';
import { whatsappFactory } from '../plugins/platforms/whatsapp/index.js';

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../${path}`, import.meta.url)), 'utf8');

function fences(markdown: string): { lang: string; body: string }[] {
  const out: { lang: string; body: string }[] = [];
  const re = /^\s*```(\w*)\n([\s\S]*?)^\s*```/gm;
  for (let m = re.exec(markdown); m !== null; m = re.exec(markdown)) out.push({ lang: m[1] ?? '', body: m[2] ?? '' });
  return out;
}

/** The keys an adapter's settings.ts reads from `gateway.platforms.<name>`. */
function keysRead(platform: string): Set<string> {
  const source = read(`plugins/platforms/${platform}/settings.ts`);
  const keys = new Set<string>();
  // the kit's settingsReader: read.string('key'), read.boolean('key', ...), read.integer(...), read.oneOf(...)
  for (const m of source.matchAll(/\bread\.(?:string|boolean|integer|oneOf)\(\s*'([a-z_]+)'/g))
    if (m[1]) keys.add(m[1]);
  for (const m of source.matchAll(/\bsettings\.([a-z_]+)\b/g)) if (m[1]) keys.add(m[1]);
  keys.add('enabled'); // the gateway's own switch, documented in every table
  keys.add('send_rate_limit'); // read for every platform by the plugin SDK (readSendRateLimit)
  keys.add('streaming'); // read for every platform by the gateway (display.streaming's override)
  return keys;
}

/** The first-column keys of the guide's settings table. */
function keysDocumented(doc: string): Set<string> {
  const rows = doc.match(/^\| `([a-z_]+)` \|/gm) ?? [];
  return new Set(rows.map((r) => /`([a-z_]+)`/.exec(r)?.[1] ?? ''));
}

const PLATFORMS: { name: string; factory: PlatformFactory; env: Record<string, string> }[] = [
  { name: 'telegram', factory: telegramFactory, env: { TELEGRAM_BOT_TOKEN: '1:docs' } },
  { name: 'discord', factory: discordFactory, env: { DISCORD_BOT_TOKEN: 'docs-token' } },
  {
    name: 'slack',
    factory: slackFactory,
    env: { SLACK_BOT_TOKEN: 'xoxb-docs', SLACK_APP_TOKEN: 'xapp-docs', SLACK_SIGNING_SECRET: 'docs-secret' },
  },
  {
    name: 'whatsapp',
    factory: whatsappFactory,
    env: {
      WHATSAPP_ACCESS_TOKEN: 'EAAGdocs',
      WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
      WHATSAPP_APP_SECRET: 'docs-app-secret',
      WHATSAPP_VERIFY_TOKEN: 'docs-verify-token',
    },
  },
  {
    name: 'signal',
    factory: signalFactory,
    env: { SIGNAL_HTTP_URL: 'http://127.0.0.1:8080', SIGNAL_ACCOUNT: '+15550009999' },
  },
  {
    name: 'matrix',
    factory: matrixFactory,
    env: { MATRIX_HOMESERVER_URL: 'https://matrix.example.org', MATRIX_ACCESS_TOKEN: 'syt_docs_token' },
  },
  {
    name: 'email',
    factory: emailFactory,
    env: {
      EMAIL_ADDRESS: 'hermes@example.com',
      EMAIL_PASSWORD: 'docs-app-password',
      EMAIL_IMAP_HOST: 'imap.example.com',
      EMAIL_SMTP_HOST: 'smtp.example.com',
    },
  },
];

describe.each(PLATFORMS)('docs/platforms/$name.md', ({ name, factory, env }) => {
  const doc = read(`docs/platforms/${name}.md`);

  it('documents exactly the settings the adapter reads', () => {
    expect([...keysDocumented(doc)].sort()).toEqual([...keysRead(name)].sort());
  });

  it('its config samples load without warnings and the adapter accepts their settings', () => {
    const samples = fences(doc).filter((b) => b.lang === 'yaml' && /^\s*gateway:/m.test(b.body));
    expect(samples.length).toBeGreaterThan(0);
    for (const sample of samples) {
      const home = mkdtempSync(join(tmpdir(), 'hermes-docs-platform-'));
      writeFileSync(join(home, 'config.yaml'), sample.body);
      const { config, warnings } = loadConfig({ home, env: {} });
      expect(warnings.map((w) => w.message)).toEqual([]);
      const settings = config.gateway.platforms[name] ?? {};
      const adapter = factory.create({
        settings,
        env,
        logger: silentLogger,
        cacheDir: home,
        state: { get: () => undefined, set: () => {}, delete: () => {} },
        commands: () => [],
        route: () => {},
      });
      expect(adapter.name).toBe(name);
    }
  });
});

describe('docs/platforms/slack.md app manifest', () => {
  it('asks for every event and scope the adapter needs', () => {
    const manifest = fences(read('docs/platforms/slack.md')).find((b) => b.body.includes('oauth_config:'));
    const parsed = parse(manifest?.body ?? '') as {
      oauth_config: { scopes: { bot: string[] } };
      settings: { event_subscriptions: { bot_events: string[] }; socket_mode_enabled: boolean };
    };
    expect(parsed.settings.event_subscriptions.bot_events).toEqual(
      expect.arrayContaining(['app_mention', 'message.channels', 'message.im']),
    );
    expect(parsed.oauth_config.scopes.bot).toEqual(
      expect.arrayContaining([
        'app_mentions:read',
        'chat:write',
        'im:history',
        'channels:history',
        'files:read',
        'reactions:write',
      ]),
    );
    expect(parsed.settings.socket_mode_enabled).toBe(true);
  });
});
