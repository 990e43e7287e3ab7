// The real daemon in-process: `buildGatewayApp` (what `hermes gateway run` runs) from a fresh
// HERMES_HOME with config.yaml, the process environment set for it (and restored at stop), bundled
// platform plugins loaded from their tokens, the real logger writing HERMES_HOME/logs/gateway.log.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InboxStatus } from '@hermes/store';
import { stringify } from 'yaml';
import { buildGatewayApp, type GatewayApp } from '../../../apps/hermes/src/gateway-app.js';
import { trustHome } from '../../helpers/run-hermes.js';

/** Variables of the caller's environment that would reach a daemon (credentials, homes, allowlists). */
const OWNED_ENV =
  /^(OPENAI_|HERMES_|TELEGRAM_|DISCORD_|SLACK_|WHATSAPP_|SIGNAL_|MATRIX_|EMAIL_|API_SERVER_KEY|GATEWAY_|SEARXNG_|BRAVE_|TAVILY_|FIRECRAWL_|EXA_)/;

export interface DaemonOptions {
  /** config.yaml content (merged over the suite's defaults, section by section) */
  config?: Record<string, unknown>;
  /** process environment for the daemon (tokens, allowlists, API_SERVER_KEY, ...) */
  env: Record<string, string>;
  /** the fake model's base URL */
  modelUrl: string;
  /** files to create under HERMES_HOME before start (relative path -> content) */
  files?: Record<string, string>;
  /** an existing HERMES_HOME (restart on the same state) */
  home?: string;
}

export interface Daemon {
  app: GatewayApp;
  home: string;
  url: string;
  logPath: string;
  /** every line of gateway.log so far */
  logText(): string;
  /** waits until no message is being processed */
  idle(): Promise<void>;
  /** inbox rows per status */
  inboxCounts(): Record<InboxStatus, number>;
  /** outbox rows after `afterId` that are not `sent` (pending or failed), with their errors */
  unsentOutbox(afterId?: number): { id: number; platform: string; status: string; error: string | null }[];
  /** the newest outbox row id (0 when none) */
  lastOutboxId(): number;
  /** inbox rows still unfinished (accepted or processing) */
  pendingInbox(): number;
  /** the inbox row of a platform message key, with its outbox rows */
  message(platform: string, key: string): { status: string; outbox: string[] } | undefined;
  /** how many inbox rows there are (every accepted inbound message) */
  inboxTotal(): number;
  /** a platform's persisted state value (e.g. Telegram's update offset) */
  platformState(platform: string, key: string): string | undefined;
  /** log lines that show a crash path: unhandled rejections, uncaught exceptions, pipeline failures */
  crashLines(): string[];
  stop(): Promise<void>;
}

function merge(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = out[key];
    out[key] =
      typeof value === 'object' && value !== null && !Array.isArray(value) && typeof current === 'object' && current
        ? merge(current as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return out;
}

let running = false;

/** Builds and starts the daemon; one at a time per process (it owns process.env while it runs). */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  if (running) throw new Error('startDaemon: a daemon is already running in this process');
  running = true;
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'hermes-bad-input-'));
  mkdirSync(join(home, 'locks'), { recursive: true });
  const config = merge(
    {
      model: { default: 'bad-input-model', base_url: options.modelUrl, timeout_s: 20 },
      agent: { api_max_retries: 0, max_iterations: 4, tool_timeout_s: 10 },
      terminal: { cwd: home },
      logging: { level: 'info' },
      // every valid message gets its own answer (interrupt mode would answer only the last of a burst)
      display: { busy_input_mode: 'queue' },
      // each input its own turn: a long input (a possible cut part of a paste) would open a batch
      // that the next inputs and the canary join (gateway.batch_ms; tested in test/gateway/batch.test.ts)
      gateway: { host: '127.0.0.1', port: 0, drain_timeout_s: 1, max_concurrent_runs: 16, batch_ms: 0 },
    },
    options.config ?? {},
  );
  writeFileSync(join(home, 'config.yaml'), stringify(config));
  for (const [path, content] of Object.entries(options.files ?? {})) {
    const full = join(home, path);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, content);
  }
  // the operator's consent for what the config enables (plugins, hook hatches: docs/security.md)
  trustHome(home);
  const saved = { ...process.env };
  for (const key of Object.keys(process.env)) if (OWNED_ENV.test(key)) delete process.env[key];
  Object.assign(process.env, { HERMES_HOME: home, HERMES_LOCK_DIR: join(home, 'locks') }, options.env);
  const restoreEnv = () => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  };
  let app: GatewayApp;
  let url: string;
  try {
    app = await buildGatewayApp({});
    url = await app.listen();
    // healthy before the platforms connect: the tests drive connected platforms
    await app.platformsStarted();
  } catch (error) {
    restoreEnv();
    running = false;
    throw error;
  }
  const logPath = join(home, 'logs', 'gateway.log');
  const store = app.rt.sqlite;
  if (store === null) throw new Error('the bad-input daemon runs on SQLite (state.backend sqlite)');
  const logText = () => {
    try {
      return readFileSync(logPath, 'utf8');
    } catch {
      return '';
    }
  };
  let stopped = false;
  return {
    app,
    home,
    url,
    logPath,
    logText,
    idle: () => app.gateway.idle(),
    inboxCounts: () => store.inbox.countByStatus(),
    pendingInbox: () => store.inbox.pending().length,
    message(platform, key) {
      const row = store.db
        .prepare<[string, string], { id: number; status: string }>(
          'SELECT id, status FROM inbox WHERE platform = ? AND message_key = ?',
        )
        .get(platform, key);
      if (row === undefined) return undefined;
      const outbox = store.db
        .prepare<[number], { status: string }>('SELECT status FROM outbox WHERE inbox_id = ? ORDER BY id')
        .all(row.id)
        .map((r) => r.status);
      return { status: row.status, outbox };
    },
    platformState: (platform, key) => store.platformState.get(platform, key),
    inboxTotal: () => store.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM inbox').get()?.n ?? 0,
    unsentOutbox: (afterId = 0) =>
      store.db
        .prepare<[number], { id: number; platform: string; status: string; last_error: string | null }>(
          "SELECT id, platform, status, last_error FROM outbox WHERE id > ? AND status <> 'sent'",
        )
        .all(afterId)
        .map((r) => ({ id: r.id, platform: r.platform, status: r.status, error: r.last_error?.slice(0, 200) ?? null })),
    lastOutboxId: () => store.db.prepare<[], { n: number | null }>('SELECT MAX(id) AS n FROM outbox').get()?.n ?? 0,
    crashLines: () =>
      logText()
        .split('\n')
        .filter((line) => /unhandled promise rejection|uncaught exception|pipeline failure/.test(line)),
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        await app.stop();
      } finally {
        restoreEnv();
        running = false;
        // a home made here goes (its logs run to tens of MB); BAD_INPUT_KEEP_HOME=1 keeps it for a post-mortem
        if (options.home === undefined && !process.env.BAD_INPUT_KEEP_HOME)
          rmSync(home, { recursive: true, force: true });
      }
    },
  };
}
