/** The words of a chat approval: the prompt and what each answer did. */
import type { ApprovalChoice, ApprovalRequest, MessageEvent } from '@hermes/protocol';

/** longest command shown in a prompt (the rest is cut, marked) */
const MAX_COMMAND_CHARS = 1_000;

export function approvalPromptText(
  request: ApprovalRequest,
  event: MessageEvent,
  timeoutMs: number,
  buttons: boolean,
): string {
  const command =
    request.command.length > MAX_COMMAND_CHARS ? `${request.command.slice(0, MAX_COMMAND_CHARS)}…` : request.command;
  const who = event.source.userName ? ` (${event.source.userName})` : '';
  const how = buttons
    ? 'Press a button, or answer /approve, /approve session, /approve always or /deny.'
    : 'Answer /approve (once), /approve session, /approve always or /deny.';
  return [
    'Approval needed: the agent wants to run',
    command,
    `Why: ${request.description}`,
    `Only the user who asked${who} can answer. ${how} Denied after ${Math.round(timeoutMs / 1000)} s without an answer.`,
  ].join('\n');
}

export function outcomeText(choice: ApprovalChoice): string {
  switch (choice) {
    case 'once':
      return 'Approved once.';
    case 'session':
      return 'Approved for this session.';
    case 'always':
      return 'Approved always (until the gateway restarts).';
    case 'deny':
      return 'Denied.';
    case 'timeout':
      return 'No answer in time: denied.';
  }
}
