/**
 * What every command that runs the agent needs, assembled once: HERMES_HOME, .env, config,
 * logger, the state store of state.backend (state.db or PostgreSQL), the hook bus, the tool registry with built-in and plugin tools, the model client.
 */
import { join } from 'node:path';
import { stderr } from 'node:process';
import {
  type ApprovalPrompt,
  createApprovalGate,
  createPluginLlm,
  type McpManager,
  type MemoryManager,
  ModelClient,
  type ModelRequestObserver,
  type SessionModels,
  SkillCatalog,
  serializeResult,
  ToolRegistry,
} from '@hermes/agent';
import { secretValues } from '@hermes/config';
import { createLogger, createRedactor, installProcessGuards, type LoggerHandle } from '@hermes/logging';
import {
  allowlistPath,
  type ConsentPrompt,
  HookBus,
  type HookCallbackObserver,
  type LoadPluginsOptions,
  loadPlugins,
  PluginFaults,
  type PluginRecord,
  PluginRegistries,
  type RegisterShellHooksResult,
  registerShellHooks,
} from '@hermes/plugins';
import { ERROR_CODES, exitProcess, HermesError, type Logger, silentLogger } from '@hermes/protocol';
import type { AsyncStore, Store } from '@hermes/store';
import { oneLineConsole, pluginFailureLine } from './console-lines.js';
import { canPrompt, terminalConsentPrompt } from './hook-consent-prompt.js';
import type { GlobalOptions } from './main.js';
import { createMcpManager } from './mcp-setup.js';
import { setupMemory } from './memory-setup.js';
import { pluginAliases, pluginSources } from './plugin-sources.js';
import { lazyPrimaryCaller, sessionModels } from './providers-setup.js';
import { registerRuntimeTools } from './runtime-tools.js';
import { loadSettings, type Settings, userHome } from './settings.js';
import { loadSkillCatalog } from './skills-setup.js';
import type { StartupPhases } from './startup-phases.js';
import { openStateStore } from './state-store.js';
import { reportTrust, trustedAutoAcceptVia, trustGate } from './trust/trust-gate.js';
import { registerTtsCommands } from './tts-command-setup.js';
import { setupUsers } from './users-setup.js';

export { type LoadSettingsOptions, loadSettings, type Settings, userHome } from './settings.js';

export interface AgentRuntime extends Settings {
  logger: Logger;
  /** every line the logger writes, redacted (the console's log ring buffer); returns the removal */
  logTap: LoggerHandle['tap'];
  /** the state store of state.backend: state.db (sqlite) or HERMES_DATABASE_URL (postgres) */
  store: AsyncStore;
  /** the synchronous SQLite store behind `store` (the gateway's group commit, VACUUM); null on postgres */
  sqlite: Store | null;
  hooks: HookBus;
  tools: ToolRegistry;
  plugins: PluginRecord[];
  /** the `hooks:` block of config.yaml: what was registered on the bus and what was skipped */
  shellHooks: RegisterShellHooksResult;
  registries: PluginRegistries;
  /** the primary provider's client (model.provider / --provider) */
  client: ModelClient;
  /** memory.provider's provider around each turn (its tools are registered) */
  memory: MemoryManager;
  /** the model providers, each session's model (`/model`) and model.fallback */
  models: SessionModels;
  /** the skills read at start: HERMES_HOME/skills/ and the plugins' (skills_list, skill_view, /skill-name) */
  readonly skills: SkillCatalog;
  /** replaces the skills catalog (a gateway reload): skills_list and skill_view read it at call time */
  setSkills(catalog: SkillCatalog): void;
  /** loads and unloads plugins after start (a gateway reload), with the same host services as at start */
  pluginLoader: RuntimePluginLoader;
  /** the MCP servers of mcp_servers (connecting in the background; their tools join `tools` when connected) */
  mcp: McpManager;
  /** where ctx.injectMessage goes; the interactive chat sets it */
  setInjector(fn: ((text: string) => boolean) | null): void;
  model: string;
  secrets: () => string[];
  /** the process's one redactor, built from `secrets()` (every chokepoint uses it) */
  redact: (text: string) => string;
  approvalGate(sessionKey: string, ask?: ApprovalPrompt): ReturnType<typeof createApprovalGate>;
  close(): Promise<void>;
}

export interface RuntimePluginLoader {
  /** loads the discovered plugins `only` passes (their records; enabled/disabled as loadPlugins takes them) */
  load(options: {
    enabled: readonly string[];
    disabled: readonly string[];
    only: (key: string) => boolean;
  }): Promise<PluginRecord[]>;
  /** undoes all a loaded plugin registered (tools, hooks, commands, skills, providers); false when it was not loaded */
  unload(key: string): boolean;
}

export interface RuntimeOptions {
  yolo?: boolean;
  /** file name under logs/ */
  logFile?: string;
  /**
   * May a person be asked to allow new shell hooks? Default: when stdin and stderr are terminals.
   * The gateway passes false: hooks without consent are skipped with a warning.
   */
  interactive?: boolean;
  /** the consent prompt (tests inject one); default: y/N on the terminal */
  consentPrompt?: ConsentPrompt;
  /** metrics observers for the hook bus and the model client (the gateway's /metrics) */
  observers?: { hooks?: HookCallbackObserver; model?: ModelRequestObserver };
  /** start-up phase timings (the gateway logs them) */
  phases?: StartupPhases;
  /**
   * The console on a terminal: `lines` (default; chat, -z): one short line per warning, and one
   * line per plugin that failed to load; `pretty`: pino-pretty (the gateway in the foreground).
   */
  console?: 'lines' | 'pretty';
  /** false: the MCP servers are not started (a command that only lists the registry's tools) */
  startMcp?: boolean;
}

/** Builds the agent runtime for a CLI command. The caller must `close()` it. */
export async function createAgentRuntime(global: GlobalOptions, options: RuntimeOptions = {}): Promise<AgentRuntime> {
  const phases = options.phases;
  const settings = loadSettings(global, { shellHooksReadLater: true });
  phases?.mark('config');
  const { config, paths, env } = settings;
  // with a provider profile, its default model stands in for model.default (providers-setup.ts)
  const namedProvider = (global.provider ?? config.model.provider) !== 'custom';
  let model = global.model ?? config.model.default;
  if (!model && !namedProvider) {
    throw new HermesError(
      ERROR_CODES.CONFIG_KEY,
      `no model configured: set model.default in ${paths.config} or HERMES_INFERENCE_MODEL`,
    );
  }
  const secretList = secretValues(config, env, { dotenv: settings.dotenv });
  const secrets = () => secretList;
  const redact = createRedactor(secretList);
  const log = await createLogger({
    dir: paths.logs,
    fileName: options.logFile ?? 'cli.log',
    level: config.logging.level,
    secrets: secretList,
    redactor: redact,
    // chat and -z: one short line per warning on a terminal; the gateway: pino-pretty
    ...(!stderr.isTTY
      ? { console: false as const }
      : options.console === 'pretty'
        ? { console: 'pretty' as const }
        : { console: 'json' as const, consoleStream: oneLineConsole(stderr) }),
    consoleLevel: 'warn',
    name: 'hermes',
  });
  const logger = log.logger;
  // uncaught errors traced to a plugin are logged with its name and do not end the process
  const pluginFaults = new PluginFaults({
    logger: logger.child({ component: 'plugins' }),
    disableHooks: (plugin) => hooks.removeOwner({ source: 'plugin', name: plugin }),
  });
  const uninstallGuards = installProcessGuards(logger, { claim: pluginFaults.claim, exit: exitProcess });
  phases?.mark('logger');
  let opened: Awaited<ReturnType<typeof openStateStore>>;
  try {
    opened = await openStateStore(settings, { redact });
  } catch (err) {
    uninstallGuards();
    await log.close();
    throw err;
  }
  const { store, sqlite } = opened;
  phases?.mark('store');
  const hooks = new HookBus({
    logger: logger.child({ component: 'hooks' }),
    timeoutMs: config.plugins.hook_timeout_ms,
    onError: (owner, hook, err) => {
      if (owner.source !== 'plugin') return;
      const message = err instanceof Error ? err.message : String(err);
      // the bus has logged it: counted only
      pluginFaults.record(owner.name, `hook ${hook} failed: ${message}`, { logged: true });
    },
    ...(options.observers?.hooks ? { observer: options.observers.hooks } : {}),
  });
  const tools = new ToolRegistry(logger, { redact });
  const makeClient = (baseUrl: string, apiKey: string, headers?: Readonly<Record<string, string>>) =>
    new ModelClient({
      baseUrl,
      apiKey,
      timeoutMs: config.model.timeout_s * 1000,
      connectTimeoutMs: config.model.connect_timeout_s * 1000,
      idleTimeoutMs: config.model.idle_timeout_s * 1000,
      retryBudgetMs: config.model.retry_budget_s * 1000,
      maxRetries: config.agent.api_max_retries,
      hooks,
      logger: logger.child({ component: 'model' }),
      ...(options.observers?.model ? { observer: options.observers.model } : {}),
      ...(headers ? { headers } : {}),
    });
  let client = makeClient(config.model.base_url, config.model.api_key);
  const registries = new PluginRegistries();
  // built after the plugins load (their profiles); ctx.llm reaches the primary through it
  let models: SessionModels | null = null;
  const primaryCaller = lazyPrimaryCaller(() => models, client);
  // read once the plugins have registered theirs (below)
  let skills = new SkillCatalog();
  const { browser } = registerRuntimeTools({
    settings,
    tools,
    registries,
    plugins: () => plugins,
    skills: () => skills,
    sessionSearch: store.sessionSearch,
    yolo: options.yolo ?? false,
    secrets,
    redact,
    logger,
  });
  let injector: ((text: string) => boolean) | null = null;
  const cwd = config.terminal.cwd ?? process.cwd();
  phases?.mark('tools');
  // consent bound to content (trust.json): a pending plugin, MCP server or skill is not loaded
  const trust = trustGate(settings);
  reportTrust(trust, logger.child({ component: 'trust' }));
  const unloaders = new Map<string, () => void>();
  const pluginOptions: Omit<LoadPluginsOptions, 'enabled' | 'disabled'> = {
    dirs: pluginSources({ home: settings.home, cwd: process.cwd(), env }),
    env,
    tools,
    hooks,
    logger: logger.child({ component: 'plugins' }),
    aliases: pluginAliases(),
    faults: pluginFaults,
    unloaders,
    host: {
      registries,
      dataRoot: join(settings.home, 'plugin-data'),
      llm: createPluginLlm(primaryCaller, model, 'plugin'),
      // a role other than user goes in as a `[role] ` prefix on a user message (the seed's contract)
      injectMessage: (text, opts) =>
        injector ? injector(opts?.role && opts.role !== 'user' ? `[${opts.role}] ${text}` : text) : false,
      dispatchTool: async (name, args, context) => {
        const tool = tools.get(name);
        if (!tool) return JSON.stringify({ error: `Unknown tool "${name}"` });
        const value = await tool.handler(args, {
          sessionId: '',
          taskId: '',
          toolCallId: `dispatch_${Date.now()}`,
          platform: 'cli',
          cwd,
          signal: new AbortController().signal,
          logger: silentLogger,
          hooks,
          requestApproval: async () => 'deny',
          ...context,
        });
        return serializeResult(value);
      },
    },
  };
  const plugins = await loadPlugins({
    ...pluginOptions,
    enabled: config.plugins.enabled.filter((key) => trust.allows(`plugin:${key}`)),
    disabled: config.plugins.disabled,
  });
  const pluginLoader: RuntimePluginLoader = {
    load: (o) =>
      loadPlugins({
        ...pluginOptions,
        // a plugin folder added since start is found too
        dirs: pluginSources({ home: settings.home, cwd: process.cwd(), env }),
        ...o,
      }),
    unload(key) {
      const unload = unloaders.get(key);
      if (!unload) return false;
      unloaders.delete(key);
      unload();
      // a hook the fault tracker or a late registration added under its name goes too
      hooks.removeOwner({ source: 'plugin', name: key });
      return true;
    },
  };
  // after the plugins (their providers keep their names); approved entries only
  registerTtsCommands(settings, registries, trust.allows, logger.child({ component: 'tts' }));
  phases?.mark('plugins');
  skills = loadSkillCatalog(settings, registries, logger.child({ component: 'skills' }), trust.allows);
  await setupUsers(store, config, logger.child({ component: 'users' }));
  const memory = setupMemory({
    settings,
    registries,
    store,
    tools,
    logger: logger.child({ component: 'memory' }),
    redact,
    warnOnStderr: options.console !== 'pretty',
  });
  // after the plugins and memory: a plugin's tool keeps its name, the MCP tool is reported as skipped
  const mcp = createMcpManager({
    config: {
      ...config,
      mcp_servers: Object.fromEntries(Object.entries(config.mcp_servers).filter(([n]) => trust.allows(`mcp:${n}`))),
    },
    env,
    home: settings.home,
    tools,
    logger: logger.child({ component: 'mcp' }),
    redact,
  });
  if (options.startMcp !== false) mcp.start();
  models = sessionModels({ global, config, env, registries, store, logger, customClient: client, makeClient });
  client = models.providers.client(models.primary().provider);
  model = models.primary().model;
  if (options.console !== 'pretty') {
    for (const r of plugins) if (r.state === 'failed') stderr.write(`hermes: ${pluginFailureLine(r)}\n`);
  }
  // after plugins, so a plugin's block decision wins a tie
  const interactive = options.interactive ?? canPrompt();
  const shellHooks = await registerShellHooks({
    bus: hooks,
    hooks: config.hooks,
    configPath: paths.config,
    allowlistPath: allowlistPath(settings.home),
    userHome: userHome(env),
    cwd,
    autoAccept: trustedAutoAcceptVia(settings, global.acceptHooks ?? false),
    prompt: interactive ? (options.consentPrompt ?? terminalConsentPrompt) : null,
    logger: logger.child({ component: 'shell-hooks' }),
    warn: (message) => {
      stderr.write(`hermes: warning: ${message}\n`);
      // on a terminal the logger's console would print it a second time
      if (!stderr.isTTY) logger.warn({ component: 'shell-hooks' }, message);
    },
  });
  phases?.mark('shell hooks');
  return {
    ...settings,
    logger,
    logTap: log.tap,
    store,
    sqlite,
    hooks,
    tools,
    plugins,
    shellHooks,
    registries,
    client,
    memory,
    models,
    get skills() {
      return skills;
    },
    setSkills(catalog) {
      skills = catalog;
    },
    pluginLoader,
    mcp,
    model,
    setInjector: (fn) => {
      injector = fn;
    },
    secrets,
    redact,
    approvalGate: (sessionKey, ask) =>
      createApprovalGate({ hooks, surface: 'cli', sessionKey, ...(ask ? { ask } : {}) }),
    async close() {
      // stdio servers' children end with the runtime
      await mcp.close();
      await browser.close();
      uninstallGuards();
      await store.close();
      await log.close();
    },
  };
}
