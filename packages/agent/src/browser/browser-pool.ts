/**
 * The browser of one process: headless Chromium launched on first use (through the vetting proxy),
 * one browser context and page per session so no two sessions (no two users) share cookies or a
 * page, one action at a time per session. A session's page is closed when it has been idle for
 * `idleMs`; with none left the browser is closed too, and launched again on the next use. `close()`
 * (the process's shutdown) closes everything.
 */
import type { Logger, TurnUser } from '@hermes/protocol';
import { silentLogger } from '@hermes/protocol';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { FileGuard } from '../tools/file-guard.js';
import type { UrlPolicy } from '../web/url-guard.js';
import { findChromium } from './find-chromium.js';
import { judgeUrl } from './request-guard.js';
import { startVettingProxy, type VettingProxy } from './vetting-proxy.js';

/** The page size screenshots are taken at. */
export const VIEWPORT = { width: 1280, height: 800 } as const;
/** Chromium's start-up may take this long at least, whatever tools.browser.timeout_s says. */
const LAUNCH_TIMEOUT_MIN_MS = 30_000;

/** No background connections, no QUIC (UDP around the proxy), no WebRTC outside the proxy, no DNS of its own. */
const FLAGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
];

/** The browser could not be had (no Chromium, a failed launch, the process shutting down): the tool says why. */
export class BrowserUnavailableError extends Error {
  override name = 'BrowserUnavailableError';
}

export interface BrowserPoolOptions {
  /** tools.browser.executable; absent: looked up on PATH (find-chromium.ts) */
  executable?: string;
  /** the PATH searched; default process.env.PATH */
  envPath?: string;
  /** tools.browser.idle_timeout_s, in ms */
  idleMs: number;
  /** tools.browser.timeout_s, in ms: each navigation and action */
  timeoutMs: number;
  /** web_extract's SSRF policy (security.allow_private_urls) */
  policy: UrlPolicy;
  /** the file tools' guard of a session (file:// URLs) */
  files: (sessionId: string, user?: TurnUser) => Promise<FileGuard>;
  /** test seam: where the proxy dials a vetted address */
  dial?: (address: string) => string;
  logger?: Logger;
}

/** What an action gets: the session's page, and what the routing refused during it. */
export interface BrowserSession {
  page: Page;
  /** the reasons of the requests the routing refused since the session opened (the action reads its own) */
  refused: string[];
}

interface Running {
  browser: Browser;
  proxy: VettingProxy;
}

interface Entry {
  opening: Promise<BrowserSession & { context: BrowserContext }>;
  queue: Promise<unknown>;
  /** actions queued or running */
  pending: number;
  timer: NodeJS.Timeout | null;
}

export class BrowserPool {
  readonly #options: BrowserPoolOptions;
  readonly #logger: Logger;
  #running: Promise<Running> | null = null;
  readonly #sessions = new Map<string, Entry>();
  #closed = false;

  constructor(options: BrowserPoolOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
  }

  /** The file guard of a session (file:// URLs), without opening anything. */
  files(sessionId: string, user?: TurnUser): Promise<FileGuard> {
    return this.#options.files(sessionId, user);
  }

  /** Sessions with an open page. */
  get sessions(): number {
    return this.#sessions.size;
  }

  /** True while a Chromium is running (or starting). */
  get launched(): boolean {
    return this.#running !== null;
  }

  /**
   * Runs `action` on the session's page after the session's earlier actions; the page (and the
   * browser) are opened first if needed, and the idle clock restarts when it ends.
   */
  async use<T>(sessionId: string, user: TurnUser | undefined, action: (s: BrowserSession) => Promise<T>): Promise<T> {
    if (this.#closed) throw new BrowserUnavailableError('the browser is shut down (the process is stopping)');
    let entry = this.#sessions.get(sessionId);
    if (entry === undefined) {
      const opening = this.#open(sessionId, user);
      entry = { opening, queue: Promise.resolve(), pending: 0, timer: null };
      this.#sessions.set(sessionId, entry);
      opening.catch(() => {
        if (this.#sessions.get(sessionId) === entry) this.#sessions.delete(sessionId);
      });
    }
    const current = entry;
    if (current.timer) clearTimeout(current.timer);
    current.timer = null;
    current.pending++;
    const run = current.queue.then(async () => action(await current.opening));
    current.queue = run.catch(() => undefined);
    try {
      return await run;
    } finally {
      current.pending--;
      if (current.pending === 0 && this.#sessions.get(sessionId) === current) this.#idle(sessionId, current);
    }
  }

  /** Closes one session's page (the browser too when it was the last). */
  async closeSession(sessionId: string): Promise<boolean> {
    const entry = this.#sessions.get(sessionId);
    if (entry === undefined) return false;
    this.#sessions.delete(sessionId);
    if (entry.timer) clearTimeout(entry.timer);
    try {
      const session = await entry.opening;
      await session.context.close();
    } catch {
      // it never opened, or the browser is gone: nothing left to close
    }
    if (this.#sessions.size === 0) await this.#stopBrowser();
    return true;
  }

  /** Closes every page and the browser; later uses are refused. */
  async close(): Promise<void> {
    this.#closed = true;
    const ids = [...this.#sessions.keys()];
    await Promise.all(ids.map((id) => this.closeSession(id)));
    await this.#stopBrowser();
  }

  #idle(sessionId: string, entry: Entry): void {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      if (this.#sessions.get(sessionId) !== entry) return;
      this.#logger.debug({ sessionId }, 'browser: idle session page closed');
      void this.closeSession(sessionId);
    }, this.#options.idleMs);
    entry.timer.unref();
  }

  async #open(sessionId: string, user: TurnUser | undefined): Promise<BrowserSession & { context: BrowserContext }> {
    const { browser } = await this.#browser();
    const files = await this.#options.files(sessionId, user);
    const context = await browser.newContext({
      serviceWorkers: 'block',
      acceptDownloads: false,
      viewport: VIEWPORT,
    });
    context.setDefaultTimeout(this.#options.timeoutMs);
    context.setDefaultNavigationTimeout(this.#options.timeoutMs);
    const refused: string[] = [];
    // every request of every page of the context (popups too); redirects are the proxy's to vet
    await context.route('**/*', async (route) => {
      const verdict = await judgeUrl(route.request().url(), files, { policy: this.#options.policy });
      if (verdict.ok) {
        await route.continue().catch(() => undefined);
        return;
      }
      refused.push(verdict.reason);
      await route.abort('blockedbyclient').catch(() => undefined);
    });
    const page = await context.newPage();
    // a page the site closed (window.close()) ends the session: the next action opens a new one
    page.once('close', () => {
      const entry = this.#sessions.get(sessionId);
      if (entry) void entry.opening.then((s) => (s.page === page ? this.closeSession(sessionId) : undefined));
    });
    return { page, refused, context };
  }

  #browser(): Promise<Running> {
    this.#running ??= this.#launch().catch((err: unknown) => {
      this.#running = null;
      throw err;
    });
    return this.#running;
  }

  async #launch(): Promise<Running> {
    const found = findChromium(this.#options.executable, this.#options.envPath ?? process.env.PATH);
    if (!found.ok) throw new BrowserUnavailableError(found.error);
    const { chromium } = await import('playwright-core');
    const proxy = await startVettingProxy({
      policy: this.#options.policy,
      logger: this.#logger,
      ...(this.#options.dial ? { dial: this.#options.dial } : {}),
    });
    let browser: Browser;
    try {
      browser = await chromium.launch({
        executablePath: found.path,
        headless: true,
        args: FLAGS,
        // Playwright adds <-loopback> to the bypass list: loopback goes through the proxy too
        proxy: { server: proxy.url },
        // Chromium refuses its sandbox as root
        chromiumSandbox: process.getuid?.() !== 0,
        timeout: Math.max(LAUNCH_TIMEOUT_MIN_MS, this.#options.timeoutMs),
      });
    } catch (err) {
      await proxy.close();
      const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
      throw new BrowserUnavailableError(`cannot start Chromium (${found.path}): ${message}`);
    }
    const running: Running = { browser, proxy };
    browser.once('disconnected', () => {
      // a crash: the next use launches a new one
      if (this.#running === null) return;
      void this.#running.then((r) => {
        if (r !== running) return;
        this.#running = null;
        for (const entry of this.#sessions.values()) if (entry.timer) clearTimeout(entry.timer);
        this.#sessions.clear();
        void proxy.close();
        this.#logger.warn('browser: Chromium went away; it is started again on the next use');
      });
    });
    this.#logger.info({ executable: found.path }, 'browser: Chromium started');
    return running;
  }

  async #stopBrowser(): Promise<void> {
    const running = this.#running;
    if (running === null) return;
    this.#running = null;
    try {
      const { browser, proxy } = await running;
      await browser.close().catch(() => undefined);
      await proxy.close();
      this.#logger.debug('browser: Chromium closed');
    } catch {
      // the launch failed: nothing runs
    }
  }
}
