/**
 * The `browser` tool and its pool from config (tools.browser.*, security.allow_private_urls,
 * web.max_content_chars) and the file tools' confinement: what a runtime registers, and closes on
 * shutdown (`pool.close()`).
 */
import type { Logger, ToolDefinition } from '@hermes/protocol';
import { type FileToolOptions, sessionFileGuard } from '../tools/file-guard-session.js';
import { type Resolver, systemResolver, type UrlPolicy } from '../web/url-guard.js';
import { BrowserPool } from './browser-pool.js';
import { createBrowserTool } from './browser-tool.js';

/** `tools.browser:` of config.yaml. */
export interface BrowserConfig {
  executable?: string | undefined;
  idle_timeout_s: number;
  timeout_s: number;
}

export interface BrowserSetup extends FileToolOptions {
  config: BrowserConfig;
  /** security.allow_private_urls */
  allowPrivateUrls: boolean;
  /** web.max_content_chars */
  maxTextChars: number;
  /** where the screenshots of the turn's user (owner key; undefined: no user) are saved */
  screenshotDir(owner: string | undefined): string;
  logger?: Logger;
  /** test seams: the resolver and dialler of the SSRF gate (as web_extract's), the PATH searched */
  resolve?: Resolver;
  dial?: (address: string) => string;
  envPath?: string;
}

/** Builds the pool (nothing launched yet) and the tool over it. */
export function createBrowser(setup: BrowserSetup): { tool: ToolDefinition; pool: BrowserPool } {
  const policy: UrlPolicy = { allowPrivate: setup.allowPrivateUrls, resolve: setup.resolve ?? systemResolver };
  const pool = new BrowserPool({
    ...(setup.config.executable !== undefined ? { executable: setup.config.executable } : {}),
    ...(setup.envPath !== undefined ? { envPath: setup.envPath } : {}),
    idleMs: setup.config.idle_timeout_s * 1000,
    timeoutMs: setup.config.timeout_s * 1000,
    policy,
    files: sessionFileGuard(setup),
    ...(setup.dial ? { dial: setup.dial } : {}),
    ...(setup.logger ? { logger: setup.logger } : {}),
  });
  const tool = createBrowserTool({
    pool,
    policy,
    maxTextChars: setup.maxTextChars,
    screenshotDir: setup.screenshotDir,
    timeoutS: setup.config.timeout_s,
  });
  return { tool, pool };
}
