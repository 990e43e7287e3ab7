/**
 * A chat message's stages after the accept, in order: `pre_gateway_dispatch` (skip, rewrite or
 * allow), authorization, the answer to a clarify question its sender was asked in this chat (it
 * ends there), the group address rules (internal events skip these four), then a
 * command runs, or the message goes to the batcher and on to its session's lane. Each stage either
 * finishes the message (its outcome settles the inbox row) or passes it on.
 */
import type { MessageEvent } from '@hermes/protocol';
import type { CommitWork } from '@hermes/store';
import { parseCommand } from '../commands/commands.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import { addressRules } from '../pipeline/address.js';
import { type AuthorizePorts, allowedAtOnce, authorize } from '../pipeline/authorize.js';
import { type DispatchPorts, dispatchHeard, dispatchHook } from '../pipeline/dispatch.js';
import type { LaneJob, StageInput } from '../pipeline/input.js';
import { type PipelineOutcome, settleInbox } from '../pipeline/outcome.js';
import type { ChannelSettings } from './channel-settings.js';
import type { GroupContext } from './group-context.js';

export interface ChatIntakePorts {
  dispatch: DispatchPorts;
  /** `sessionStore.ingest` writes a dispatch hook started: awaited before the message goes on (`undefined`: none) */
  ingests: { settled(): Promise<void> | undefined };
  authorize: AuthorizePorts;
  /** gateway.free_response_chats */
  freeResponseChats: readonly string[];
  metrics: GatewayMetrics;
  commit: CommitWork;
  /** the chat an authorized user wrote from (send_message may address it) */
  remember(event: MessageEvent): void;
  /** delivers the pairing code to a stranger; the inbox row is answered once it is delivered */
  pairingReply(input: StageInput, text: string): Promise<unknown>;
  /** runs a command (pipeline/command.ts) */
  command(input: StageInput, command: { name: string; args: string }): Promise<PipelineOutcome>;
  /**
   * a message answering a clarify question its sender was asked in this chat (approvals/chat-clarify.ts):
   * true when it did (it is then consumed, not a new turn)
   */
  clarifyReply?(event: MessageEvent): boolean;
  /** hands the message on to the batcher (pipeline/batch.ts), then its lane */
  batch(job: LaneJob): void;
  /** what groups said while the bot was not addressed (absent: nothing kept) */
  groupContext?: GroupContext;
  /** gateway.channel_prompts, channel_skills and channel_toolsets (intake/channel-settings.ts) */
  channel?: ChannelSettings;
}

/**
 * In the default configuration (no `pre_gateway_dispatch` callback, no pending ingest, an allowlisted
 * sender, no channel skills to preload) nothing here is awaited before the message is handed on.
 */
export async function runChatStages(ports: ChatIntakePorts, input: StageInput): Promise<PipelineOutcome> {
  let { event } = input;
  // the text's command, parsed once (undefined: not yet)
  let command: ReturnType<typeof parseCommand> | undefined;
  const counters = ports.metrics.platform(event.platform);
  const finish = async (outcome: PipelineOutcome) => {
    await ports.commit(settleInbox(input.inboxId, outcome));
    return outcome;
  };
  if (!event.internal) {
    if (dispatchHeard(ports.dispatch)) {
      const dispatched = await dispatchHook(ports.dispatch, event);
      const ingested = ports.ingests.settled();
      if (ingested) await ingested;
      if (dispatched.kind === 'skipped') {
        counters.ignored('hook_skip');
        return finish(dispatched);
      }
      event = dispatched.event;
    } else {
      // no callback: no payload, but ingests a hook started before it was removed are still waited for
      const ingested = ports.ingests.settled();
      if (ingested) await ingested;
    }
    if (!allowedAtOnce(ports.authorize, event.source)) {
      const auth = await authorize(ports.authorize, event);
      if (auth.kind !== 'allowed') {
        counters.ignored('unauthorized');
        if (auth.kind !== 'pairing_reply') return finish(auth);
        await ports.pairingReply({ ...input, event }, auth.text);
        return { kind: 'answered' };
      }
    }
    // the answer to a question the turn waits on (a group's too, unaddressed); a command still runs (/stop)
    if (ports.clarifyReply) {
      command = parseCommand(event.text);
      if (command === null && ports.clarifyReply(event)) return finish({ kind: 'answered' });
    }
    const addressed = addressRules(event, ports.freeResponseChats);
    if (addressed.kind === 'skipped') {
      counters.ignored('not_addressed');
      ports.groupContext?.record(event);
      return finish(addressed);
    }
  }
  ports.remember(event);
  if (command === undefined) command = parseCommand(event.text);
  if (command) return ports.command(event === input.event ? input : { ...input, event }, command);
  // the row stays `accepted` until answered: a restart resumes it (marking `processing` counts restarts)
  const settings = ports.channel?.(event);
  const channel = settings instanceof Promise ? await settings : settings;
  const text = ports.groupContext ? ports.groupContext.withContext(event, event.text) : event.text;
  const job: LaneJob = {
    inboxId: input.inboxId,
    event,
    sessionKey: input.sessionKey,
    acceptedAt: input.acceptedAt,
    text,
  };
  if (channel?.instructions !== undefined) job.instructions = channel.instructions;
  if (channel?.toolsets !== undefined) job.toolsets = channel.toolsets;
  ports.batch(job);
  return { kind: 'handed_on' };
}
