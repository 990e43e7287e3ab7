/**
 * The one mapping from config.yaml to a turn service's settings, and the one way a turn service is
 * built from them: `hermes -z`, `hermes chat` and `hermes gateway run` (its chat platforms, the API
 * platform, the Responses API, cron, a gateway hook's `runAgent`) all run their turns with what
 * `turnConfig` returns, so a model setting cannot reach one surface and miss another.
 */
import type { HermesConfig } from '@hermes/config';
import type { ContextEngine } from '@hermes/protocol';
import { CONTEXT_LENGTH_DEFAULT, type ContextSummariesPort } from './context/context-settings.js';
import { selectContextEngine } from './context/select-engine.js';
import type { ChildSessionsPort, DelegationSettings } from './delegate/delegation-settings.js';
import { TurnService, type TurnServiceSettings, type TurnTranscripts } from './turn-service.js';

/** The parts of config.yaml a turn's settings come from. */
export type TurnConfigSource = Pick<HermesConfig, 'model' | 'agent' | 'terminal' | 'context' | 'auxiliary'>;

/** What config.yaml decides about every turn: the turn service's settings without the process's objects. */
export type TurnConfig = Pick<
  TurnServiceSettings,
  | 'model'
  | 'systemPrompt'
  | 'toolsets'
  | 'toolDescriptions'
  | 'modelToolsets'
  | 'cwd'
  | 'maxIterations'
  | 'toolTimeoutMs'
  | 'maxTokens'
  | 'temperature'
  | 'vision'
  | 'context'
  | 'skillsIndex'
> & {
  /** agent.max_parallel_children, child_max_iterations, child_timeout_s (absent: no delegate_task) */
  delegation?: Omit<DelegationSettings, 'sessions'> | undefined;
};

/** What the process adds to config.yaml's turn settings. */
export interface TurnConfigInputs {
  /** the primary model: --model, model.default or the provider profile's default (`SessionModels.primary()`) */
  model: string;
  /** where tools run when terminal.cwd is not set (default: the process's working directory) */
  cwd?: string;
  /**
   * the context engines plugins registered (context.engine picks one) and where summaries are
   * stored; absent: no context engine (histories are sent whole)
   */
  context?: {
    engines: ReadonlyMap<string, { engine: ContextEngine }>;
    summaries: ContextSummariesPort;
  };
  /** the skills index for the system prompt (SkillCatalog.index(); absent: none) */
  skillsIndex?: string;
}

/**
 * config.yaml's turn settings: model.*, agent.*, terminal.cwd, context.* and
 * auxiliary.compression.model. Throws a HermesError (CONFIG_KEY) naming the registered engines when
 * context.engine names none.
 */
export function turnConfig(config: TurnConfigSource, inputs: TurnConfigInputs): TurnConfig {
  const { model, agent } = config;
  return {
    model: inputs.model,
    systemPrompt: agent.system_prompt,
    toolsets: agent.toolsets,
    toolDescriptions: agent.tool_descriptions,
    modelToolsets: agent.model_toolsets,
    cwd: config.terminal.cwd ?? inputs.cwd ?? process.cwd(),
    maxIterations: agent.max_iterations,
    toolTimeoutMs: agent.tool_timeout_s * 1000,
    maxTokens: model.max_tokens,
    temperature: model.temperature,
    vision: model.vision,
    delegation: {
      maxParallelChildren: agent.max_parallel_children,
      childMaxIterations: agent.child_max_iterations,
      childTimeoutMs: agent.child_timeout_s * 1000,
    },
    ...(inputs.context
      ? {
          context: {
            engine: selectContextEngine(config.context.engine, inputs.context.engines),
            contextLength: model.context_length ?? CONTEXT_LENGTH_DEFAULT,
            contextLengthSet: model.context_length !== undefined,
            threshold: config.context.threshold,
            protectLastN: config.context.protect_last_n,
            hardMessageLimit: config.context.hard_message_limit,
            summaryModel: config.auxiliary.compression.model,
            summaries: inputs.context.summaries,
          },
        }
      : {}),
    ...(inputs.skillsIndex ? { skillsIndex: inputs.skillsIndex } : {}),
  };
}

/** The process's objects a turn service runs with (the CLI's runtime and the gateway's dependencies both are these). */
export interface TurnServiceDeps {
  client: TurnServiceSettings['client'];
  tools: TurnServiceSettings['tools'];
  env: TurnServiceSettings['env'];
  hooks: TurnServiceSettings['hooks'];
  logger: TurnServiceSettings['logger'];
  /** the state store: the sessions' transcripts and delegate_task's child sessions */
  store: { transcripts: TurnTranscripts; childSessions?: ChildSessionsPort | undefined };
  /** the process's secret redactor (identity when absent) */
  redact?: ((text: string) => string) | undefined;
  /** memory.provider around each turn (absent: none) */
  memory?: TurnServiceSettings['memory'] | undefined;
  /** each session's model and model.fallback (absent: every turn uses `client` and the model) */
  models?: TurnServiceSettings['models'] | undefined;
  /** the tools each user's access tier allows (absent: all for everyone) */
  toolAccess?: TurnServiceSettings['toolAccess'] | undefined;
  /** the toolsets each platform narrows its turns to (absent: none narrowed) */
  platformToolsets?: TurnServiceSettings['platformToolsets'] | undefined;
}

/** A turn service with config.yaml's turn settings and the process's objects: how every surface gets one. */
export function createTurnService(config: TurnConfig, deps: TurnServiceDeps): TurnService {
  const { delegation, ...settings } = config;
  const { childSessions } = deps.store;
  return new TurnService({
    ...settings,
    client: deps.client,
    tools: deps.tools,
    env: deps.env,
    hooks: deps.hooks,
    logger: deps.logger,
    transcripts: deps.store.transcripts,
    ...(deps.redact ? { redact: deps.redact } : {}),
    ...(deps.memory ? { memory: deps.memory } : {}),
    ...(deps.models ? { models: deps.models } : {}),
    ...(deps.toolAccess ? { toolAccess: deps.toolAccess } : {}),
    ...(deps.platformToolsets ? { platformToolsets: deps.platformToolsets } : {}),
    ...(delegation ? { delegation: { ...delegation, ...(childSessions ? { sessions: childSessions } : {}) } } : {}),
  });
}

/**
 * Gives the turns `service` starts from now on config.yaml's turn settings (a gateway reload); its
 * process objects (client, tools, hooks, store, memory) stay, and a running turn keeps what it
 * started with. A key `config` no longer has (a skills index, context settings) is cleared.
 */
export function reconfigureTurnService(service: TurnService, config: TurnConfig): void {
  const { delegation, ...settings } = config;
  const sessions = service.settings.delegation?.sessions;
  service.reconfigure({
    ...settings,
    context: settings.context,
    skillsIndex: settings.skillsIndex,
    delegation: delegation ? { ...delegation, ...(sessions ? { sessions } : {}) } : undefined,
  });
}
