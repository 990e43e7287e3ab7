/**
 * Runs one tool call: parse arguments, pre_tool_call gate, handler with timeout and signal,
 * post_tool_call, transform_tool_result. Every failure becomes a JSON error result for the
 * model; nothing here throws.
 */
import {
  type ChatMessage,
  ERROR_CODES,
  HermesError,
  type HookInvoker,
  type ToolCall,
  type ToolContext,
  type ToolDefinition,
  type ToolImage,
} from '@hermes/protocol';

export interface ExecuteOptions {
  tools: ReadonlyMap<string, ToolDefinition>;
  hooks: HookInvoker;
  context: Omit<ToolContext, 'toolCallId'>;
  timeoutMs: number;
  /** where the call's `context.attachImage` goes (the turn's tool images); absent: images are not shown */
  attachImage?: (toolCallId: string, tool: string, image: ToolImage) => boolean;
}

export type ToolMessage = Extract<ChatMessage, { role: 'tool' }>;

/** The JSON error result the model sees. */
export function toolError(message: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ error: message, ...extra });
}

/** A handler's return value as the string the model sees. */
export function serializeResult(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return 'null';
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (err) {
    return toolError(`tool result is not serializable: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function parseArgs(raw: string): Record<string, unknown> | string {
  if (raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    return `arguments must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}`;
  } catch (err) {
    return `arguments are not valid JSON (${err instanceof Error ? err.message : String(err)})`;
  }
}

async function runHandler(tool: ToolDefinition, args: Record<string, unknown>, ctx: ToolContext, timeoutMs: number) {
  // the handler's own signal: aborted with the turn, and when the handler overruns its timeout
  const controller = new AbortController();
  const onTurnAbort = () => controller.abort(ctx.signal.reason);
  if (ctx.signal.aborted) controller.abort(ctx.signal.reason);
  else ctx.signal.addEventListener('abort', onTurnAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error('tool timeout'));
      resolve(toolError(`tool ${tool.name} timed out after ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    const scoped: ToolContext = { ...ctx, signal: controller.signal };
    const value = await Promise.race([Promise.resolve().then(() => tool.handler(args, scoped)), timeout]);
    return serializeResult(value);
  } catch (err) {
    // a coded error (a ToolArgumentError from a plugin's handler, a web provider's failure) keeps its code
    return toolError(
      `tool ${tool.name} failed: ${err instanceof Error ? err.message : String(err)}`,
      err instanceof HermesError ? { code: err.code } : {},
    );
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onTurnAbort);
  }
}

/** Executes one call and returns the tool message to append to the conversation. */
export async function executeToolCall(call: ToolCall, options: ExecuteOptions): Promise<ToolMessage> {
  const name = call.function.name;
  const reply = (content: string): ToolMessage => ({ role: 'tool', tool_call_id: call.id, name, content });
  const tool = options.tools.get(name);
  if (!tool) {
    const known = [...options.tools.keys()].sort().join(', ') || 'none';
    return reply(toolError(`Unknown tool "${name}". Available tools: ${known}`));
  }
  const parsed = parseArgs(call.function.arguments);
  if (typeof parsed === 'string') {
    return reply(toolError(`Invalid arguments for tool "${name}": ${parsed}`, { code: ERROR_CODES.TOOL_ARGS }));
  }

  const { context, hooks } = options;
  const block = await hooks.invoke('pre_tool_call', {
    toolName: name,
    args: parsed,
    taskId: context.taskId,
    sessionId: context.sessionId,
    toolCallId: call.id,
  });
  if (block) return reply(toolError(block.message, { blocked: true }));

  const started = performance.now();
  const attach = options.attachImage;
  const callContext: ToolContext = {
    ...context,
    toolCallId: call.id,
    ...(attach ? { attachImage: (image: ToolImage) => attach(call.id, name, image) } : {}),
  };
  const raw = await runHandler(tool, parsed, callContext, options.timeoutMs);
  await hooks.invoke('post_tool_call', {
    toolName: name,
    args: parsed,
    result: raw,
    taskId: context.taskId,
    sessionId: context.sessionId,
    toolCallId: call.id,
    durationMs: Math.round(performance.now() - started),
  });
  const transformed = await hooks.invoke('transform_tool_result', {
    toolName: name,
    arguments: parsed,
    result: raw,
    taskId: context.taskId || null,
    sessionId: context.sessionId,
  });
  return reply(transformed ?? raw);
}
