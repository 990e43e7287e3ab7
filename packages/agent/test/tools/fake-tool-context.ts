/** A ToolContext for tool tests: records hook invocations and approval requests. */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  type ApprovalChoice,
  type ApprovalRequest,
  type HookInvoker,
  type HookName,
  type HookOutcome,
  type HookPayloads,
  silentLogger,
  type ToolContext,
  type ToolDefinition,
} from '@hermes/protocol';

export interface HookCall {
  hook: HookName;
  payload: unknown;
}

export interface FakeContextOptions {
  cwd?: string;
  taskId?: string;
  /** what transform_terminal_output returns (null leaves the output) */
  transformTerminalOutput?: (payload: HookPayloads['transform_terminal_output']) => string | null;
  /** the user's answer to every approval request */
  approval?: ApprovalChoice;
}

export interface FakeContext {
  context: ToolContext;
  controller: AbortController;
  hookCalls: HookCall[];
  approvals: ApprovalRequest[];
}

/** A fake context whose hooks and approvals are recorded; aborting `controller` interrupts the tool. */
export function createFakeContext(options: FakeContextOptions = {}): FakeContext {
  const controller = new AbortController();
  const hookCalls: HookCall[] = [];
  const approvals: ApprovalRequest[] = [];
  const hooks: HookInvoker = {
    async invoke<K extends HookName>(hook: K, payload: HookPayloads[K]): Promise<HookOutcome<K>> {
      hookCalls.push({ hook, payload });
      let outcome: string | null = null;
      if (hook === 'transform_terminal_output' && options.transformTerminalOutput) {
        outcome = options.transformTerminalOutput(payload as HookPayloads['transform_terminal_output']);
      }
      // The fake only ever answers transform_terminal_output; other hooks get null/undefined.
      return outcome as HookOutcome<K>;
    },
  };
  const context: ToolContext = {
    sessionId: 'sess_test',
    taskId: options.taskId ?? 'task_1',
    toolCallId: 'call_1',
    platform: 'cli',
    cwd: options.cwd ?? process.cwd(),
    signal: controller.signal,
    logger: silentLogger,
    hooks,
    async requestApproval(request) {
      approvals.push(request);
      return options.approval ?? 'deny';
    },
  };
  return { context, controller, hookCalls, approvals };
}

/** Runs the tool's handler and parses its result as a JSON object. */
export async function callTool(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<Record<string, unknown>> {
  const raw = await tool.handler(args, ctx);
  if (typeof raw !== 'string') throw new Error(`expected a JSON string result, got ${typeof raw}`);
  const parsed: unknown = JSON.parse(raw);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`not an object: ${raw}`);
  return { ...parsed };
}

/** A fresh directory under the OS temp dir. */
export function makeTempDir(prefix = 'hermes-tools-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}
