/**
 * The `browser` tool of a runtime, from the settings: tools.browser.*, security.allow_private_urls,
 * web.max_content_chars, and the file tools' confinement (file:// URLs only inside tools.file_roots).
 * Screenshots go to the asking user's own media folder (HERMES_HOME/cache/media/<owner>/screenshots,
 * which the gateway may send them); a turn without a user to HERMES_HOME/cache/screenshots.
 */
import { join } from 'node:path';
import { type BrowserPool, createBrowser } from '@hermes/agent';
import { type Logger, safeIdentityName, type ToolDefinition } from '@hermes/protocol';
import { hermesHomesOf } from './media-setup.js';
import { type Settings, userHome } from './settings.js';

/** The browser tool and its pool (nothing launched until the model first uses it); close the pool on shutdown. */
export function browserTool(settings: Settings, logger: Logger): { tool: ToolDefinition; pool: BrowserPool } {
  const { config } = settings;
  return createBrowser({
    config: config.tools.browser,
    allowPrivateUrls: config.security.allow_private_urls,
    maxTextChars: config.web.max_content_chars,
    cwd: config.terminal.cwd ?? process.cwd(),
    ...(config.tools.file_roots ? { fileRoots: config.tools.file_roots } : {}),
    hermesHomes: hermesHomesOf(settings),
    homeDir: userHome(settings.env),
    screenshotDir: (owner) =>
      owner === undefined
        ? join(settings.home, 'cache', 'screenshots')
        : join(settings.home, 'cache', 'media', safeIdentityName(owner), 'screenshots'),
    logger,
  });
}
