/** The post_tool_call observer: remembers the last calls of every tool (not just ours) and logs each at debug level. */
import type { HookCallback, Logger } from '@hermes/plugin-sdk';

export const CALL_LOG_LIMIT = 100;

export interface CallLogEntry {
  tool: string;
  sessionId: string;
  taskId: string;
  durationMs: number;
}

export interface CallLog {
  /** oldest first, at most `limit` entries */
  readonly entries: readonly CallLogEntry[];
  readonly hook: HookCallback<'post_tool_call'>;
}

/** Creates an in-memory call log and the hook callback that fills it. */
export function createCallLog(logger: Logger, limit = CALL_LOG_LIMIT): CallLog {
  const entries: CallLogEntry[] = [];
  const hook: HookCallback<'post_tool_call'> = ({ toolName, sessionId, taskId, durationMs }) => {
    entries.push({ tool: toolName, sessionId, taskId, durationMs });
    if (entries.length > limit) entries.shift();
    logger.debug({ toolName, sessionId, taskId, durationMs }, `tool called: ${toolName} (session ${sessionId})`);
  };
  return { entries, hook };
}
