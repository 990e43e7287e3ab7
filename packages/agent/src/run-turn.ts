/**
 * One user turn: on_session_start (first turn), pre_llm_call (context appended to this turn's
 * user message at request time only), the model ⇄ tools loop with parallel tool calls and an
 * iteration limit, post_llm_call on success, and on_session_end always.
 */
import {
  type ApprovalChoice,
  type ApprovalRequest,
  type ChatMessage,
  type ClarifyPrompt,
  ERROR_CODES,
  HermesError,
  type HookInvoker,
  type HookName,
  type Logger,
  type ToolDefinition,
  type TurnUser,
} from '@hermes/protocol';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import { isContextLengthError } from './context/context-error.js';
import type { ContextFitter } from './context/context-window.js';
import { InterruptedError, type ModelClient } from './model-client.js';
import { executeToolCall } from './tool-executor.js';
import { ToolImages } from './tool-images.js';
import {
  type ImageMode,
  imageParts,
  isBadRequest,
  type RequestMessage,
  type TurnImage,
  userWithParts,
  withImageNotes,
} from './user-content.js';

export const MAX_ITERATIONS_DEFAULT = 30;
export const TOOL_TIMEOUT_DEFAULT_MS = 300_000;

export interface TurnOptions {
  /** a ModelClient, or anything with its complete() (a per-session provider with model.fallback) */
  client: Pick<ModelClient, 'complete'>;
  model: string;
  systemPrompt: string;
  /** the session's earlier messages, without the system prompt; not mutated */
  history: readonly ChatMessage[];
  userMessage: string;
  sessionId: string;
  platform: string;
  tools: readonly ToolDefinition[];
  hooks: HookInvoker & { count?(hook: HookName): number };
  logger: Logger;
  requestApproval: (request: ApprovalRequest) => Promise<ApprovalChoice>;
  /** asks the turn's user a question (the clarify tool); absent: nobody can answer */
  clarify?: ClarifyPrompt;
  cwd: string;
  /** who the turn is for (owner identity and tier): the tools' `context.user` */
  user?: TurnUser;
  signal?: AbortSignal;
  maxIterations?: number;
  toolTimeoutMs?: number;
  taskId?: string;
  maxTokens?: number;
  temperature?: number;
  /** streamed answer text; when set the model request streams */
  onDelta?: (text: string) => void;
  /** after each model step: the iteration number and the tools it called */
  onStep?: (step: { iteration: number; toolNames: string[] }) => void;
  /** messages that arrived mid-turn to steer it (busy mode steer): added before the next model step */
  takeSteering?: () => string[];
  /** images the user sent with this message (in the media cache) */
  images?: readonly TurnImage[];
  /** `parts` (default): images (the user's, the tools') go to the model as content parts; `notes`: as notes naming the file */
  imageMode?: ImageMode;
  /** model.vision auto: a 400 to a request with images (the user's, then the tools') is retried once without them */
  visionFallback?: boolean;
  /** called when the model refused the images with a 400 and the turn went on without them */
  onVisionRefused?: () => void;
  /** more context for this turn's request only, after pre_llm_call's (memory prefetch) */
  extraContext?: string | null;
  /** the context window: asked before each model request; a context-length 400 is retried once, forced */
  context?: ContextFitter;
}

export type TurnStatus = 'completed' | 'interrupted' | 'failed' | 'max_iterations';

export interface TurnResult {
  status: TurnStatus;
  /** the final answer, when status is completed */
  finalText: string | null;
  /** this turn's messages to persist: the original user message, then assistant and tool messages */
  messages: ChatMessage[];
  iterations: number;
  error: HermesError | null;
  /** the tokens the model reported, summed over this turn's model calls; null when it reported none */
  usage: TokenUsage | null;
  /** the model's thinking over this turn's steps (reasoning.ts); never in `messages` */
  reasoning?: string;
}

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

function addUsage(sum: TokenUsage | null, step: TokenUsage | null): TokenUsage | null {
  if (step === null) return sum;
  return {
    prompt_tokens: (sum?.prompt_tokens ?? 0) + (step.prompt_tokens ?? 0),
    completion_tokens: (sum?.completion_tokens ?? 0) + (step.completion_tokens ?? 0),
    total_tokens: (sum?.total_tokens ?? 0) + (step.total_tokens ?? 0),
  };
}

/** One schema object per registered tool, kept across turns (completion-json.ts serializes each once). */
const schemaOf = new WeakMap<ToolDefinition, ChatCompletionTool>();

function toolSchemas(tools: readonly ToolDefinition[]): ChatCompletionTool[] {
  return tools.map((t) => {
    let schema = schemaOf.get(t);
    if (schema === undefined) {
      schema = {
        type: 'function',
        function: { name: t.name, description: t.schema.description, parameters: t.schema.parameters },
      };
      schemaOf.set(t, schema);
    }
    return schema;
  });
}

/**
 * A private copy of the history (and the turn's messages after it) for a hook's callbacks; skipped
 * when the hook has none (a bus that can count): a long chat's history is not even joined then.
 */
function copyFor(
  hooks: TurnOptions['hooks'],
  hook: HookName,
  history: readonly ChatMessage[],
  after: readonly ChatMessage[] = [],
): ChatMessage[] {
  return hooks.count?.(hook) === 0 ? [] : structuredClone([...history, ...after]);
}

/** The request's messages with the tools' images set in; the list itself when there are none. */
async function withToolImages(images: ToolImages, messages: RequestMessage[]): Promise<RequestMessage[]> {
  return images.any ? images.into(messages) : messages;
}

/** Runs one turn to its end; never throws (failures are in the result). */
export async function runTurn(options: TurnOptions): Promise<TurnResult> {
  const { hooks, model, platform, sessionId } = options;
  const maxIterations = options.maxIterations ?? MAX_ITERATIONS_DEFAULT;
  const signal = options.signal ?? new AbortController().signal;
  const isFirstTurn = options.history.length === 0;
  const images = options.images ?? [];
  const imageMode = options.imageMode ?? 'parts';
  const userText = withImageNotes(options.userMessage, images, imageMode);
  const turn: ChatMessage[] = [{ role: 'user', content: userText }];
  let iterations = 0;
  let status: TurnStatus = 'failed';
  let finalText: string | null = null;
  let error: HermesError | null = null;
  let usage: TokenUsage | null = null;
  const thoughts: string[] = [];

  // a hook without callbacks (a bus that can count) gets no payload built and nothing awaited
  const heard = (hook: HookName) => hooks.count?.(hook) !== 0;
  try {
    if (isFirstTurn && heard('on_session_start'))
      await hooks.invoke('on_session_start', { sessionId, model, platform });
    const hookContext = heard('pre_llm_call')
      ? await hooks.invoke('pre_llm_call', {
          sessionId,
          userMessage: userText,
          conversationHistory: copyFor(hooks, 'pre_llm_call', options.history),
          isFirstTurn,
          model,
          platform,
        })
      : null;
    const context = [hookContext, options.extraContext].filter(Boolean).join('\n\n');
    // the injected context lives only in the request, never in `turn` (what is persisted)
    const withContext = (text: string): string => (context ? `${text}\n\n${context}` : text);
    const withParts = imageMode === 'parts' && images.length > 0;
    let requestUser: RequestMessage = withParts
      ? userWithParts(withContext(userText), await imageParts(images))
      : { role: 'user', content: withContext(userText) };
    let mayFallBack = withParts && options.visionFallback === true;
    const byName = new Map(options.tools.map((t) => [t.name, t]));
    // images the tools show (a browser screenshot): in each request after their results, never stored
    const toolImages = new ToolImages(imageMode);
    const schemas = toolSchemas(options.tools);
    // what is sent after the system prompt: `base` (the context window may have compressed it), then
    // this turn's messages from `consumed` on
    let base: readonly RequestMessage[] = [...options.history, requestUser];
    let consumed = 1;
    const fit = async (force: boolean) => {
      if (!options.context) return;
      // nothing new since the last fit (a turn's first request): `base` itself, not a copy of the history
      const list = consumed === turn.length ? base : [...base, ...turn.slice(consumed)];
      base = await options.context.fit(list, { force, signal, turn });
      consumed = turn.length;
    };

    while (true) {
      if (signal.aborted) throw new InterruptedError();
      if (iterations >= maxIterations) {
        status = 'max_iterations';
        error = new HermesError(
          ERROR_CODES.MAX_ITERATIONS,
          `stopped after ${maxIterations} model steps without a final answer (agent.max_iterations)`,
        );
        break;
      }
      iterations++;
      if (iterations > 1) for (const text of options.takeSteering?.() ?? []) turn.push({ role: 'user', content: text });
      const request = async () =>
        options.client.complete({
          body: {
            model,
            // the one copy of the history a request makes (tool images, when any, are set in a copy of it)
            messages: await withToolImages(toolImages, [
              { role: 'system', content: options.systemPrompt },
              ...base,
              ...turn.slice(consumed),
            ]),
            ...(schemas.length > 0 ? { tools: schemas } : {}),
            ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}),
            ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
          },
          sessionId,
          signal,
          ...(options.onDelta ? { onDelta: options.onDelta } : {}),
        });
      let step: Awaited<ReturnType<typeof request>>;
      await fit(false);
      try {
        step = await request();
      } catch (err) {
        if (options.context && isContextLengthError(err)) {
          options.logger.warn({ sessionId, model }, 'the model said the context is too long: compressed, retried once');
          await fit(true);
          step = await request(); // a second refusal fails the turn
        } else if (toolImages.any && options.visionFallback === true && isBadRequest(err)) {
          // model.vision auto: a model that refuses image input gets the tools' results without their images
          toolImages.refuse();
          options.onVisionRefused?.();
          options.logger.warn({ sessionId, model }, 'the model refused a tool image (HTTP 400); retried without it');
          step = await request();
        } else {
          if (!mayFallBack || !isBadRequest(err)) throw err;
          // model.vision auto: a model that refuses image input gets the message again with notes instead
          mayFallBack = false;
          const refused = withImageNotes(options.userMessage, images, 'refused');
          turn[0] = { role: 'user', content: refused };
          const before = requestUser;
          requestUser = { role: 'user', content: withContext(refused) };
          base = base.map((m) => (m === before ? requestUser : m));
          options.onVisionRefused?.();
          options.logger.warn(
            { sessionId, model },
            'the model refused image input (HTTP 400); retried without the images',
          );
          step = await request();
        }
      }
      if (step.usage) options.context?.observe(step.usage.prompt_tokens);
      usage = addUsage(usage, step.usage);
      if (step.reasoning) thoughts.push(step.reasoning);
      const toolNames = step.toolCalls.map((c) => c.function.name);
      options.onStep?.({ iteration: iterations, toolNames });
      if (step.toolCalls.length === 0) {
        turn.push({ role: 'assistant', content: step.content ?? '' });
        const text = (step.content ?? '').trim();
        if (text === '') {
          throw new HermesError(ERROR_CODES.MODEL_RESPONSE, 'model returned an empty answer');
        }
        finalText = step.content ?? '';
        status = 'completed';
        break;
      }
      turn.push({ role: 'assistant', content: step.content, tool_calls: step.toolCalls });
      const context = {
        sessionId,
        taskId: options.taskId ?? '',
        platform,
        cwd: options.cwd,
        signal,
        logger: options.logger,
        hooks,
        requestApproval: options.requestApproval,
        ...(options.clarify ? { clarify: options.clarify } : {}),
        ...(options.user ? { user: options.user } : {}),
      };
      const results = await Promise.all(
        step.toolCalls.map((call) =>
          executeToolCall(call, {
            tools: byName,
            hooks,
            context,
            timeoutMs: options.toolTimeoutMs ?? TOOL_TIMEOUT_DEFAULT_MS,
            attachImage: (id, tool, image) => toolImages.attach(id, tool, image),
          }),
        ),
      );
      turn.push(...results);
    }
  } catch (err) {
    if (err instanceof InterruptedError || signal.aborted) {
      status = 'interrupted';
      error = err instanceof HermesError ? err : new InterruptedError();
    } else {
      status = 'failed';
      error =
        err instanceof HermesError
          ? err
          : // not the model's fault: a bug or an exhausted resource here (e.g. call stack exceeded)
            new HermesError(ERROR_CODES.INTERNAL, err instanceof Error ? err.message : String(err), {
              cause: err,
            });
    }
  }

  if (status === 'completed' && finalText !== null && heard('post_llm_call')) {
    await hooks.invoke('post_llm_call', {
      sessionId,
      userMessage: userText,
      assistantResponse: finalText,
      conversationHistory: copyFor(hooks, 'post_llm_call', options.history, turn),
      model,
      platform,
    });
  }
  if (heard('on_session_end')) {
    await hooks.invoke('on_session_end', {
      sessionId,
      completed: status === 'completed',
      interrupted: status === 'interrupted',
      model,
      platform,
    });
  }
  const reasoning = thoughts.join('\n\n');
  return { status, finalText, messages: turn, iterations, error, usage, ...(reasoning ? { reasoning } : {}) };
}
