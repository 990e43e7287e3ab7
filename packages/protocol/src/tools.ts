/** The tool contract shared by built-in tools, plugin tools and the agent's registry. */
import type { ClarifyPrompt } from './clarify.js';
import type { ApprovalChoice, HookName, HookOutcome, HookPayloads } from './hooks.js';
import type { Logger } from './logger.js';

/** What the model reads: the seed's `{name, description, parameters}` (JSON Schema). */
export interface ToolSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A string (JSON by convention) or a value the agent serializes with JSON.stringify. */
export type ToolHandlerResult = string | number | boolean | null | object;

export interface ApprovalRequest {
  command: string;
  description: string;
  patternKey: string;
  patternKeys: string[];
}

/** Fires hooks of the table; the agent's hook bus implements it. */
export interface HookInvoker {
  invoke<K extends HookName>(hook: K, payload: HookPayloads[K]): Promise<HookOutcome<K>>;
}

/** What a tool handler gets besides its arguments. */
export interface ToolContext {
  sessionId: string;
  taskId: string;
  toolCallId: string;
  platform: string;
  cwd: string;
  /** Aborted when the turn is interrupted: long-running tools must stop. */
  signal: AbortSignal;
  logger: Logger;
  hooks: HookInvoker;
  /** Who the turn is for: the owner identity key (linked identities resolved) and its tier (default 'user'). */
  user?: { key: string; tier: 'admin' | 'user' };
  /** Ask for approval of a dangerous command; fires pre_approval_request / post_approval_response. */
  requestApproval(request: ApprovalRequest): Promise<ApprovalChoice>;
  /**
   * Asks the user who started the turn a question and waits for the answer (the `clarify` tool);
   * absent where nobody can answer (cron, `hermes -z`, the API, a hook's runAgent, a delegated child).
   */
  clarify?: ClarifyPrompt;
  /**
   * Shows the model an image file with this call's result (the next request carries it as an image
   * part; the transcript keeps only the result). False when it will not be shown (model.vision off,
   * or a caller that shows no images): say so in the result. Absent outside a turn.
   */
  attachImage?(image: ToolImage): boolean;
}

/** An image a tool shows the model: a file it wrote (read when the request is built). */
export interface ToolImage {
  path: string;
  /** e.g. image/png */
  mimeType: string;
}

export type ToolHandler = (
  args: Record<string, unknown>,
  context: ToolContext,
) => ToolHandlerResult | Promise<ToolHandlerResult>;

export interface ToolDefinition {
  name: string;
  toolset: string;
  schema: ToolSchema;
  handler: ToolHandler;
  /** false hides the tool from the model (e.g. an optional library is missing) */
  checkFn?: () => boolean | Promise<boolean>;
  /** env vars that must be set for the tool to be offered */
  requiresEnv?: string[];
  description?: string;
  emoji?: string;
  /** who registered it: "builtin" or a plugin key */
  owner?: string;
  /**
   * Offered only when agent.toolsets names its toolset or its name: `*` leaves it out (a tool most
   * setups do not want, e.g. `browser`, whose schema a small model's window would pay for).
   */
  optIn?: boolean;
}

/**
 * Whether a selection of toolsets offers `tool`: `*` offers every tool, a toolset name its tools,
 * a tool name that tool (agent.toolsets, a tier's or a platform's toolsets, a cron job's).
 */
export function selectsTool(selection: readonly string[], tool: Pick<ToolDefinition, 'name' | 'toolset'>): boolean {
  return selection.includes('*') || selection.includes(tool.toolset) || selection.includes(tool.name);
}

/**
 * agent.toolsets' rule: `selectsTool`, except that `*` leaves out an opt-in tool, which only its
 * toolset or its name enables. (A tier's, a platform's or a cron job's `*` narrows what this let in.)
 */
export function enablesTool(
  toolsets: readonly string[],
  tool: Pick<ToolDefinition, 'name' | 'toolset' | 'optIn'>,
): boolean {
  if (toolsets.includes(tool.toolset) || toolsets.includes(tool.name)) return true;
  return toolsets.includes('*') && tool.optIn !== true;
}
