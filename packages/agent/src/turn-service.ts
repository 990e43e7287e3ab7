/**
 * The one place an agent turn is set up: the system prompt, the tools, the hooks, the approval
 * gate, the history (given, or read from the transcript) and the persistence of what the turn
 * produced. The gateway, the API platform, `hermes -z`, `hermes chat` and a gateway hook's
 * `runAgent` all run their turns through a `TurnService`.
 */
import type { ApprovalChoice, ApprovalRequest, ApprovalSurface, ChatMessage, Logger } from '@hermes/protocol';
import { type ApprovalPrompt, createApprovalGate } from './approvals.js';
import type { ContextSettings } from './context/context-settings.js';
import type { FitReport } from './context/context-window.js';
import { TokenCalibration } from './context/token-estimate.js';
import { turnContext } from './context/turn-context.js';
import { runTurn, type TurnOptions, type TurnResult } from './run-turn.js';
import { buildSystemPrompt } from './system-prompt.js';
import type { ToolRegistry } from './tool-registry.js';
import type { ImageMode, TurnImage } from './user-content.js';

/** Where a turn's messages are read from and written to (the store's transcripts satisfy it). */
export interface TurnTranscripts {
  list(sessionId: string): ChatMessage[];
  append(sessionId: string, messages: readonly ChatMessage[]): number;
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
  /** context.*, model.context_length: compress the history before a request would pass the threshold (absent: never) */
  context?: ContextSettings;
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
  signal?: AbortSignal;
  logger?: Logger;
  maxIterations?: number;
  onDelta?: (text: string) => void;
  /** the request's own instructions (the Responses API's `instructions`), after the system prompt */
  instructions?: string | null;
  onStep?: TurnOptions['onStep'];
  takeSteering?: () => string[];
  /** images the user sent with this message (in the media cache) */
  images?: readonly TurnImage[];
}

export interface ServedTurn extends TurnResult {
  /** the history the turn ran on (for a caller that caches it) */
  history: readonly ChatMessage[];
}

export class TurnService {
  readonly settings: TurnServiceSettings;
  readonly redact: (text: string) => string;
  /** models that refused image input (model.vision auto): notes instead of images until restart */
  readonly #noVision = new Set<string>();
  /** estimated ÷ reported prompt tokens per model, learnt across turns */
  readonly calibration = new TokenCalibration();

  constructor(settings: TurnServiceSettings) {
    this.settings = settings;
    this.redact = settings.redact ?? ((text) => text);
  }

  get model(): string {
    return this.settings.model;
  }

  /** Runs one turn; never throws for the turn's own failures (they are in the result). */
  async run(request: TurnRequest): Promise<ServedTurn> {
    const s = this.settings;
    const history = request.history ?? this.#transcripts().list(request.sessionId);
    const requestApproval =
      typeof request.approval === 'function'
        ? request.approval
        : createApprovalGate({
            hooks: s.hooks,
            surface: request.approval.surface,
            sessionKey: request.approval.key,
            ...(request.approval.ask ? { ask: request.approval.ask } : {}),
          });
    const vision = s.vision ?? 'auto';
    const imageMode: ImageMode =
      vision === false || (vision === 'auto' && this.#noVision.has(s.model)) ? 'notes' : 'parts';
    const base = buildSystemPrompt({ custom: s.systemPrompt, platform: request.platform });
    const systemPrompt = request.instructions ? `${base}\n\n${request.instructions}` : base;
    const tools = await s.tools.available({ env: s.env, toolsets: s.toolsets });
    const logger = request.logger ?? s.logger;
    const ctx = s.context ? this.#context(request, history, systemPrompt, tools, logger) : null;
    const result = await runTurn({
      client: s.client,
      model: s.model,
      systemPrompt,
      history: ctx?.history ?? history,
      userMessage: request.userMessage,
      sessionId: request.sessionId,
      platform: request.platform,
      tools,
      hooks: s.hooks,
      logger,
      requestApproval,
      cwd: s.cwd,
      maxIterations: request.maxIterations ?? s.maxIterations,
      toolTimeoutMs: s.toolTimeoutMs,
      ...(s.maxTokens !== undefined ? { maxTokens: s.maxTokens } : {}),
      ...(s.temperature !== undefined ? { temperature: s.temperature } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.onDelta ? { onDelta: request.onDelta } : {}),
      ...(request.onStep ? { onStep: request.onStep } : {}),
      ...(request.takeSteering ? { takeSteering: request.takeSteering } : {}),
      ...(ctx ? { context: ctx.window } : {}),
      ...(request.images && request.images.length > 0
        ? {
            images: request.images,
            imageMode,
            visionFallback: vision === 'auto',
            onVisionRefused: () => this.#noVision.add(s.model),
          }
        : {}),
    });
    if (request.persist === 'after') this.#transcripts().append(request.sessionId, result.messages);
    return { ...result, history };
  }

  /**
   * `/compress`: compresses a stored session's history now (whatever its size) and stores the
   * summary; the report says what it did. Throws a HermesError when even compressed it cannot fit.
   */
  async compress(sessionId: string, platform: string, signal?: AbortSignal): Promise<FitReport> {
    const s = this.settings;
    const full = this.#transcripts().list(sessionId);
    const systemPrompt = buildSystemPrompt({ custom: s.systemPrompt, platform });
    const tools = await s.tools.available({ env: s.env, toolsets: s.toolsets });
    const ctx = this.#context({ sessionId, persist: 'after' }, full, systemPrompt, tools, s.logger);
    if (ctx === null) throw new Error('this turn service has no context settings');
    await ctx.window.fit(ctx.history, { force: true, signal: signal ?? new AbortController().signal, turn: [] });
    return (
      ctx.window.report ?? { compressed: false, messagesBefore: 0, messagesAfter: 0, tokensBefore: 0, tokensAfter: 0 }
    );
  }

  #context(
    request: Pick<TurnRequest, 'sessionId' | 'persist' | 'stored'>,
    full: readonly ChatMessage[],
    systemPrompt: string,
    tools: Parameters<typeof turnContext>[0]['tools'],
    logger: Logger,
  ) {
    const s = this.settings;
    if (!s.context) return null;
    return turnContext({
      runtime: { ...s.context, calibration: this.calibration },
      client: s.client,
      model: s.model,
      sessionId: request.sessionId,
      systemPrompt,
      tools,
      full,
      // summaries belong to stored sessions whose turns are appended after them
      persist: (request.stored ?? request.persist === 'after') && s.context.summaries !== undefined,
      logger,
    });
  }

  #transcripts(): TurnTranscripts {
    if (!this.settings.transcripts) throw new Error('this turn service has no transcripts to read or write');
    return this.settings.transcripts;
  }
}
