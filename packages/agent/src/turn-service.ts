/**
 * The one place an agent turn is set up: the system prompt, the tools, the hooks, the approval
 * gate, the history (given, or read from the transcript) and the persistence of what the turn
 * produced. The gateway, the API platform, `hermes -z`, `hermes chat` and a gateway hook's
 * `runAgent` all run their turns through a `TurnService`.
 */
import type {
  ApprovalChoice,
  ApprovalRequest,
  ApprovalSurface,
  ChatMessage,
  ClarifyPrompt,
  Logger,
  ToolContext,
  ToolDefinition,
  TurnUser,
} from '@hermes/protocol';
import { selectsTool } from '@hermes/protocol';
import { type ApprovalPrompt, createApprovalGate } from './approvals.js';
import type { ContextSettings } from './context/context-settings.js';
import type { FitReport } from './context/context-window.js';
import { TokenCalibration } from './context/token-estimate.js';
import { turnContext } from './context/turn-context.js';
import { createDelegateTaskTool, withDelegateTool } from './delegate/delegate-task-tool.js';
import type { DelegationSettings } from './delegate/delegation-settings.js';
import type { MemoryManager } from './memory/memory-manager.js';
import type { TurnModelSource } from './providers/session-models.js';
import { runTurn, type TokenUsage, type TurnOptions, type TurnResult } from './run-turn.js';
import { buildSystemPrompt } from './system-prompt.js';
import { fitDescriptions } from './tool-descriptions.js';
import type { ToolRegistry } from './tool-registry.js';
import { CLARIFY_TOOL } from './tools/clarify-tool.js';
import type { ImageMode, TurnImage } from './user-content.js';

/**
 * Where a turn's messages are read from and written to (the store's transcripts satisfy it, adding
 * the turn's reported tokens to the session's sums); synchronous (SQLite) or asynchronous alike.
 */
export interface TurnTranscripts {
  list(sessionId: string): ChatMessage[] | Promise<ChatMessage[]>;
  append(sessionId: string, messages: readonly ChatMessage[], tokens?: TokenUsage | null): number | Promise<number>;
}

export interface TurnServiceSettings {
  client: TurnOptions['client'];
  model: string;
  /** config's agent.system_prompt (the platform's default when absent) */
  systemPrompt?: string | undefined;
  tools: ToolRegistry;
  toolsets: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  hooks: TurnOptions['hooks'];
  logger: Logger;
  cwd: string;
  maxIterations: number;
  toolTimeoutMs: number;
  maxTokens?: number | undefined;
  temperature?: number | undefined;
  /** where stored sessions' history is read from and their turns written to */
  transcripts?: TurnTranscripts;
  /** the process's secret redactor (identity when absent) */
  redact?: (text: string) => string;
  /** model.vision: images as content parts (true), as notes (false), or parts until the model refuses (auto, default) */
  vision?: boolean | 'auto';
  /** delegate_task's limits and child-session store; absent: the service offers no delegate_task */
  delegation?: DelegationSettings | undefined;
  /** memory.provider: the session's memory block in the system prompt, prefetch and sync around each turn */
  memory?: MemoryManager;
  /** tool names never offered by this service whatever the toolsets (e.g. a delegated child's memory writes) */
  excludeTools?: readonly string[];
  /** each session's model and client (`/model`, model.fallback); absent: every turn uses `client` and `model` */
  models?: TurnModelSource;
  /** the skills index (SkillCatalog.index()), in the system prompt of turns that have skill_view */
  skillsIndex?: string;
  /** context.*, model.context_length: compress the history before a request would pass the threshold (absent: never) */
  context?: ContextSettings;
  /**
   * The tools a user's turn may use out of `tools` (the gateway's access tiers: a `user` gets no
   * terminal by default); applied to every turn run for a user, delegate_task children included.
   * Absent: every tool for everyone.
   */
  toolAccess?: (tools: readonly ToolDefinition[], user: NonNullable<ToolContext['user']>) => ToolDefinition[];
  /**
   * Per platform, the toolsets (or tool names; `*` all) its turns are narrowed to, within
   * `toolsets` (gateway.platforms.<name>.toolsets); a platform not listed keeps them all.
   */
  platformToolsets?: Readonly<Record<string, readonly string[]>>;
  /**
   * Per model id, the toolsets (or tool names) the turns of that model are narrowed to
   * (agent.model_toolsets: a small local model offered fewer tools); a model not listed keeps them all.
   */
  modelToolsets?: Readonly<Record<string, readonly string[]>>;
  /**
   * agent.tool_descriptions: `short` offers each tool with its first sentence only; `auto` (the
   * default) does so for a turn whose full schemas would take more than a fifth of the model's
   * context window (tool-descriptions.ts)
   */
  toolDescriptions?: 'full' | 'short' | 'auto';
}

/** Who answers a dangerous command's approval request. */
export type TurnApproval =
  | { surface: ApprovalSurface; key: string; ask?: ApprovalPrompt }
  | ((request: ApprovalRequest) => Promise<ApprovalChoice>);

export interface TurnRequest {
  sessionId: string;
  platform: string;
  userMessage: string;
  /** the earlier messages; absent: read from the transcripts (a stored session) */
  history?: readonly ChatMessage[];
  /** `after`: the turn's messages are appended once it ends; `none`: the caller stores them (or nobody) */
  persist: 'after' | 'none';
  /**
   * the session's transcript gets this turn's messages right after `history` (by `persist: 'after'`
   * or by the caller): context summaries are read and stored for it (default: persist is `after`)
   */
  stored?: boolean;
  approval: TurnApproval;
  /**
   * Asks this turn's user a question and waits (the `clarify` tool): a gateway chat, `hermes chat`.
   * Absent where nobody can answer (cron, `hermes -z`, the API, a hook's runAgent, a delegated
   * child): the turn is not offered `clarify`.
   */
  clarify?: ClarifyPrompt;
  signal?: AbortSignal;
  logger?: Logger;
  maxIterations?: number;
  onDelta?: (text: string) => void;
  /** the request's own instructions (the Responses API's `instructions`), after the system prompt */
  instructions?: string | null;
  /** the channel's toolsets (gateway.channel_toolsets): this turn is offered only these, within the rest */
  toolsets?: readonly string[];
  onStep?: TurnOptions['onStep'];
  takeSteering?: () => string[];
  /** images the user sent with this message (in the media cache) */
  images?: readonly TurnImage[];
  /** the tools this turn may use (a delegate_task child's restricted set); default: availableTools() */
  tools?: readonly ToolDefinition[];
  /** the session whose model (`/model`) this turn uses, when not its own (a delegate_task child: its parent's) */
  modelOf?: string;
  /** false: no memory block, prefetch or sync for this turn (a delegate_task child) */
  memory?: false;
  /** who the turn is for: the owner identity (links resolved) and tier; per-user memory, search and files follow it */
  user?: TurnUser;
}

export interface ServedTurn extends TurnResult {
  /** the history the turn ran on (for a caller that caches it) */
  history: readonly ChatMessage[];
  /** the model the turn asked (the session's `/model` choice or the primary; before any fallback) */
  model: string;
}

export class TurnService {
  #settings: TurnServiceSettings;
  readonly redact: (text: string) => string;
  /** models that refused image input (model.vision auto): notes instead of images until restart */
  readonly #noVision = new Set<string>();
  #delegateTool: ToolDefinition | null;
  /** estimated ÷ reported prompt tokens per model, learnt across turns */
  readonly calibration = new TokenCalibration();

  constructor(settings: TurnServiceSettings) {
    this.#settings = settings;
    this.redact = settings.redact ?? ((text) => text);
    this.#delegateTool = settings.delegation ? createDelegateTaskTool(this, settings.delegation) : null;
  }

  /** The settings new turns start with (a running turn keeps the ones it started with). */
  get settings(): TurnServiceSettings {
    return this.#settings;
  }

  /**
   * Changes the settings of the turns that start from now on (a gateway reload); a running turn
   * finishes with the settings it read when it started.
   */
  reconfigure(changes: Partial<TurnServiceSettings>): void {
    this.#settings = { ...this.#settings, ...changes };
    if ('delegation' in changes) {
      const { delegation } = this.#settings;
      this.#delegateTool = delegation ? createDelegateTaskTool(this, delegation) : null;
    }
  }

  /**
   * The tools a turn may use now: the registry's available ones, and delegate_task when enabled;
   * for `user`, those of them their access tier allows (settings.toolAccess).
   */
  async availableTools(user?: ToolContext['user'], platform?: string): Promise<ToolDefinition[]> {
    const s = this.settings;
    const all = withDelegateTool(
      await s.tools.available({
        env: s.env,
        toolsets: s.toolsets,
        ...(s.excludeTools ? { exclude: s.excludeTools } : {}),
      }),
      this.#delegateTool,
      s.toolsets,
    );
    return this.#forUser(all, user, platform);
  }

  #forUser(tools: readonly ToolDefinition[], user: ToolContext['user'], platform?: string): ToolDefinition[] {
    const access = this.settings.toolAccess;
    const allowed = access && user ? access(tools, user) : [...tools];
    const narrowed = platform === undefined ? undefined : this.settings.platformToolsets?.[platform];
    return narrowed === undefined ? allowed : allowed.filter((t) => selectsTool(narrowed, t));
  }

  /** The session's system prompt before memory: the configured or default one, and the skills index when skill_view is offered. */
  #systemPrompt(platform: string, tools: readonly ToolDefinition[]): string {
    const s = this.settings;
    const skills = s.skillsIndex && tools.some((t) => t.name === 'skill_view') ? s.skillsIndex : undefined;
    return buildSystemPrompt({ custom: s.systemPrompt, platform, skillsIndex: skills });
  }

  /** tools that write memory (the active provider's): never given to a delegate_task child */
  memoryWriteTools(): string[] {
    return this.settings.memory?.writeToolNames() ?? [];
  }

  get model(): string {
    return this.settings.model;
  }

  /** Runs one turn; never throws for the turn's own failures (they are in the result). */
  async run(request: TurnRequest): Promise<ServedTurn> {
    const s = this.settings;
    const history = request.history ?? (await this.#transcripts().list(request.sessionId));
    const requestApproval =
      typeof request.approval === 'function'
        ? request.approval
        : createApprovalGate({
            hooks: s.hooks,
            surface: request.approval.surface,
            sessionKey: request.approval.key,
            ...(request.approval.ask ? { ask: request.approval.ask } : {}),
          });
    const picked = await s.models?.forTurn(request.modelOf ?? request.sessionId);
    const model = picked?.model ?? s.model;
    const vision = s.vision ?? 'auto';
    const imageMode: ImageMode =
      vision === false || (vision === 'auto' && this.#noVision.has(model)) ? 'notes' : 'parts';
    const memorySession = {
      sessionId: request.sessionId,
      platform: request.platform,
      ...(request.user ? { user: request.user } : {}),
    };
    const memoryManager = request.memory === false ? undefined : s.memory;
    const memory = memoryManager
      ? await memoryManager.beforeTurn({ ...memorySession, userMessage: request.userMessage })
      : null;
    const forUser = request.tools
      ? this.#forUser(request.tools, request.user, request.platform)
      : await this.availableTools(request.user, request.platform);
    // the model's and the channel's own narrowing; a question nobody can answer is not offered
    const narrowed = narrowTools(forUser, [s.modelToolsets?.[model], request.toolsets]);
    const offered = request.clarify ? narrowed : narrowed.filter((t) => t.name !== CLARIFY_TOOL);
    const prompt = this.#systemPrompt(request.platform, offered);
    const window =
      s.context && (s.context.contextLengthSet || picked?.contextLength === undefined)
        ? s.context.contextLength
        : picked?.contextLength;
    const tools = fitDescriptions(offered, s.toolDescriptions ?? 'auto', window);
    const base = memory?.block ? `${prompt}\n\n${memory.block}` : prompt;
    const systemPrompt = request.instructions ? `${base}\n\n${request.instructions}` : base;
    const logger = request.logger ?? s.logger;
    const client = picked?.client ?? s.client;
    const ctx = s.context
      ? await this.#context(request, history, {
          systemPrompt,
          tools,
          logger,
          client,
          model,
          contextLength: picked?.contextLength,
        })
      : null;
    const result = await runTurn({
      client,
      model,
      systemPrompt,
      history: ctx?.history ?? history,
      userMessage: request.userMessage,
      sessionId: request.sessionId,
      platform: request.platform,
      ...(request.user ? { user: request.user } : {}),
      tools,
      hooks: s.hooks,
      logger,
      requestApproval,
      ...(request.clarify ? { clarify: request.clarify } : {}),
      cwd: s.cwd,
      ...(request.user ? { user: request.user } : {}),
      maxIterations: request.maxIterations ?? s.maxIterations,
      toolTimeoutMs: s.toolTimeoutMs,
      ...(s.maxTokens !== undefined ? { maxTokens: s.maxTokens } : {}),
      ...(s.temperature !== undefined ? { temperature: s.temperature } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.onDelta ? { onDelta: request.onDelta } : {}),
      ...(request.onStep ? { onStep: request.onStep } : {}),
      ...(request.takeSteering ? { takeSteering: request.takeSteering } : {}),
      ...(memory?.context ? { extraContext: memory.context } : {}),
      ...(ctx ? { context: ctx.window } : {}),
      // the user's images and the tools' (a browser screenshot) alike
      imageMode,
      visionFallback: vision === 'auto',
      onVisionRefused: () => this.#noVision.add(model),
      ...(request.images && request.images.length > 0 ? { images: request.images } : {}),
    });
    if (request.persist === 'after') await this.#transcripts().append(request.sessionId, result.messages, result.usage);
    await memoryManager?.afterTurn({
      ...memorySession,
      userMessage: request.userMessage,
      assistantResponse: result.finalText,
      completed: result.status === 'completed',
      interrupted: result.status === 'interrupted',
    });
    // the fallback's note goes to the reader once, never into the transcript the model sees
    const note = picked?.note() ?? null;
    if (note !== null && result.finalText !== null)
      return { ...result, finalText: `${result.finalText}\n\n${note}`, history, model };
    return { ...result, history, model };
  }

  /**
   * `/compress`: compresses a stored session's history now (whatever its size) and stores the
   * summary; the report says what it did. Throws a HermesError when even compressed it cannot fit.
   */
  async compress(sessionId: string, platform: string, signal?: AbortSignal): Promise<FitReport> {
    const s = this.settings;
    const full = await this.#transcripts().list(sessionId);
    const picked = await s.models?.forTurn(sessionId);
    const tools = await this.availableTools();
    const ctx = await this.#context({ sessionId, persist: 'after' }, full, {
      systemPrompt: this.#systemPrompt(platform, tools),
      tools,
      logger: s.logger,
      client: picked?.client ?? s.client,
      model: picked?.model ?? s.model,
      contextLength: picked?.contextLength,
    });
    if (ctx === null) throw new Error('this turn service has no context settings');
    await ctx.window.fit(ctx.history, { force: true, signal: signal ?? new AbortController().signal, turn: [] });
    return (
      ctx.window.report ?? { compressed: false, messagesBefore: 0, messagesAfter: 0, tokensBefore: 0, tokensAfter: 0 }
    );
  }

  async #context(
    request: Pick<TurnRequest, 'sessionId' | 'persist' | 'stored'>,
    full: readonly ChatMessage[],
    turn: {
      systemPrompt: string;
      tools: Parameters<typeof turnContext>[0]['tools'];
      logger: Logger;
      client: Parameters<typeof turnContext>[0]['client'];
      model: string;
      /** the session's provider profile's window (model.context_length, when set, wins) */
      contextLength: number | undefined;
    },
  ) {
    const s = this.settings;
    if (!s.context) return null;
    const contextLength =
      s.context.contextLengthSet || turn.contextLength === undefined ? s.context.contextLength : turn.contextLength;
    return turnContext({
      runtime: { ...s.context, contextLength, calibration: this.calibration },
      client: turn.client,
      model: turn.model,
      sessionId: request.sessionId,
      systemPrompt: turn.systemPrompt,
      tools: turn.tools,
      full,
      // summaries belong to stored sessions whose turns are appended after them
      persist: (request.stored ?? request.persist === 'after') && s.context.summaries !== undefined,
      logger: turn.logger,
    });
  }

  #transcripts(): TurnTranscripts {
    if (!this.settings.transcripts) throw new Error('this turn service has no transcripts to read or write');
    return this.settings.transcripts;
  }
}

/** The tools every one of `narrowings` selects (an absent narrowing selects all). */
function narrowTools(
  tools: readonly ToolDefinition[],
  narrowings: readonly (readonly string[] | undefined)[],
): readonly ToolDefinition[] {
  const applied = narrowings.filter((n): n is readonly string[] => n !== undefined);
  return applied.length === 0 ? tools : tools.filter((t) => applied.every((n) => selectsTool(n, t)));
}
