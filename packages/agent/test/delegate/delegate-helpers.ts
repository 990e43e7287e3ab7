// Shared set-up for the delegate_task tests: a turn service on the fake OpenAI server whose
// responder tells the parent's requests from the children's (their system prompt says "subagent").
import type { HookBus } from '@hermes/plugins';
import { type ChatMessage, silentLogger, type ToolDefinition } from '@hermes/protocol';
import type { RecordedRequest, Reply } from '../../../../test/fakes/openai-server.js';
import { type DelegationSettings, ToolRegistry, TurnService } from '../../src/index.js';
import { client } from '../helpers.js';

export function tool(name: string, toolset: string, handler: ToolDefinition['handler'] = () => 'ok'): ToolDefinition {
  return {
    name,
    toolset,
    schema: { name, description: name, parameters: { type: 'object', properties: {} } },
    handler,
  };
}

export function messagesOf(request: RecordedRequest): ChatMessage[] {
  return (request.body?.messages ?? []) as ChatMessage[];
}

export function isChild(request: RecordedRequest): boolean {
  const system = messagesOf(request)[0];
  return typeof system?.content === 'string' && system.content.includes('You are a subagent');
}

/** The child's task text (its first user message). */
export function goalOf(request: RecordedRequest): string {
  const user = messagesOf(request).find((m) => m.role === 'user');
  return typeof user?.content === 'string' ? user.content : '';
}

export function toolNamesOf(request: RecordedRequest): string[] {
  const tools = (request.body?.tools ?? []) as { function: { name: string } }[];
  return tools.map((t) => t.function.name).sort();
}

/** The parent's replies: first a delegate_task call with `args`, then a final text. */
export function parentReplies(args: object): (request: RecordedRequest) => Reply {
  return (request) =>
    messagesOf(request).some((m) => m.role === 'tool')
      ? { text: 'parent done' }
      : { toolCalls: [{ name: 'delegate_task', arguments: args }] };
}

export function delegatingService(
  url: string,
  bus: HookBus,
  options: {
    tools?: ToolDefinition[];
    toolsets?: string[];
    delegation?: DelegationSettings;
    redact?: (text: string) => string;
  } = {},
): TurnService {
  const registry = new ToolRegistry();
  for (const t of options.tools ?? []) registry.register(t);
  return new TurnService({
    client: client(url, bus, 0),
    model: 'test-model',
    tools: registry,
    toolsets: options.toolsets ?? ['*'],
    env: {},
    hooks: bus,
    logger: silentLogger,
    cwd: process.cwd(),
    maxIterations: 5,
    toolTimeoutMs: 10_000,
    delegation: options.delegation ?? {},
    ...(options.redact ? { redact: options.redact } : {}),
  });
}

/** The JSON result the parent got from delegate_task. */
export function delegateResult(messages: readonly ChatMessage[]): { results: Record<string, unknown>[] } {
  const toolMessage = messages.find((m) => m.role === 'tool' && m.name === 'delegate_task');
  if (!toolMessage || typeof toolMessage.content !== 'string') throw new Error('no delegate_task result');
  return JSON.parse(toolMessage.content) as { results: Record<string, unknown>[] };
}
