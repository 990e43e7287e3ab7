/**
 * The approval gate for dangerous commands: fires pre_approval_request and
 * post_approval_response, asks the user where a surface can ask, denies where none can, and
 * remembers "session"/"always" answers per pattern for the life of the gate.
 */
import type { ApprovalChoice, ApprovalRequest, ApprovalSurface, HookInvoker } from '@hermes/protocol';

/** Asks a person; resolves with their choice. Absent on non-interactive surfaces. */
export type ApprovalPrompt = (request: ApprovalRequest) => Promise<ApprovalChoice>;

export interface ApprovalGateOptions {
  hooks: HookInvoker;
  surface: ApprovalSurface;
  sessionKey: string;
  ask?: ApprovalPrompt;
}

/** Builds the `requestApproval` function tools receive in their context. */
export function createApprovalGate(
  options: ApprovalGateOptions,
): (request: ApprovalRequest) => Promise<ApprovalChoice> {
  const remembered = new Set<string>();
  return async (request) => {
    if (request.patternKeys.length > 0 && request.patternKeys.every((k) => remembered.has(k))) return 'session';
    const payload = { ...request, sessionKey: options.sessionKey, surface: options.surface };
    await options.hooks.invoke('pre_approval_request', payload);
    let choice: ApprovalChoice = 'deny';
    if (options.ask) {
      try {
        choice = await options.ask(request);
      } catch {
        choice = 'timeout';
      }
    }
    if (choice === 'session' || choice === 'always') for (const k of request.patternKeys) remembered.add(k);
    await options.hooks.invoke('post_approval_response', { ...payload, choice });
    return choice;
  };
}
