/**
 * The tools a runtime offers before the plugins add theirs: the built-in ones confined by
 * tools.file_roots and tools.terminal.* (never HERMES_HOME), skill_view and skills_list (reading
 * the catalog at call time), the web tools, image_generate, the opt-in browser and session_search.
 */
import {
  type BrowserPool,
  createBuiltinTools,
  createSessionSearchTool,
  createSkillsListTool,
  createSkillViewTool,
  createWebTools,
  type SessionSearchSource,
  type SkillCatalog,
  type ToolRegistry,
} from '@hermes/agent';
import type { PluginRecord, PluginRegistries } from '@hermes/plugins';
import type { Logger } from '@hermes/protocol';
import { browserTool } from './browser-setup.js';
import { hermesHomesOf, imageGenerateTool } from './media-setup.js';
import { type Settings, userHome } from './settings.js';

export interface RuntimeToolsDeps {
  settings: Settings;
  tools: ToolRegistry;
  registries: PluginRegistries;
  /** the loaded plugins, read at call time (the web tools name a provider's plugin) */
  plugins: () => readonly PluginRecord[];
  /** the skill catalog, read at call time (it is read again after the plugins load, and on a reload) */
  skills: () => SkillCatalog;
  sessionSearch: SessionSearchSource;
  /** --yolo: dangerous terminal commands run without asking (the floor still holds) */
  yolo: boolean;
  secrets: () => string[];
  redact: (text: string) => string;
  logger: Logger;
}

/** Where the built-in tools may go (tools.file_roots, tools.terminal.*) and what they never touch (HERMES_HOME). */
function toolConfinement(settings: Settings) {
  const { config } = settings;
  return {
    ...(config.tools.file_roots ? { fileRoots: config.tools.file_roots } : {}),
    // a profile lives in <root>/profiles/<name>: the root's .env and config are protected too
    hermesHomes: hermesHomesOf(settings),
    homeDir: userHome(settings.env),
    backend: config.tools.terminal.backend,
    envPassthrough: config.tools.terminal.env_passthrough,
    network: config.tools.terminal.network,
  };
}

/** Registers the runtime's own tools; the browser's pool is returned to be closed with the runtime. */
export function registerRuntimeTools(deps: RuntimeToolsDeps): { browser: BrowserPool } {
  const { settings, tools, registries, redact, logger } = deps;
  const { config } = settings;
  for (const tool of createBuiltinTools({
    timeoutMs: config.terminal.timeout_s * 1000,
    maxOutputChars: config.terminal.max_output_chars,
    cwd: config.terminal.cwd ?? process.cwd(),
    extraDangerousPatterns: [...config.terminal.dangerous_patterns_extra],
    yolo: deps.yolo,
    secrets: deps.secrets,
    redact: (text) => redact(text),
    ...toolConfinement(settings),
  })) {
    tools.register(tool);
  }
  tools.register(createSkillViewTool(deps.skills));
  tools.register(createSkillsListTool(deps.skills));
  const webTools = createWebTools({
    providers: registries.webSearchProviders,
    plugins: deps.plugins,
    config: config.web,
    allowPrivateUrls: config.security.allow_private_urls,
    logger: logger.child({ component: 'web' }),
  });
  for (const tool of webTools) tools.register(tool);
  tools.register(imageGenerateTool(settings, registries));
  // opt-in (agent.toolsets names `browser`); Chromium starts on the first call
  const browser = browserTool(settings, logger.child({ component: 'browser' }));
  tools.register(browser.tool);
  tools.register(createSessionSearchTool(deps.sessionSearch));
  return { browser: browser.pool };
}
