/**
 * The gateway's ports for a chat message's stages after the accept (intake/chat-intake.ts): the
 * dispatch hooks, authorization and pairing, the clarify answer, the channel settings, commands and
 * the batcher, wired to the running gateway's parts.
 */
import type { MessageEvent } from '@hermes/protocol';
import type { ChatClarify } from '../approvals/chat-clarify.js';
import { chatCommandAnswer } from '../commands/command-ports.js';
import type { GatewayDelivery } from '../delivery/gateway-delivery.js';
import { channelSettings } from '../intake/channel-settings.js';
import type { ChatIntakePorts } from '../intake/chat-intake.js';
import { GroupContext } from '../intake/group-context.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { MessageBatcher } from '../pipeline/batch.js';
import { type CommandPorts, runCommandStage } from '../pipeline/command.js';
import type { DispatchPorts } from '../pipeline/dispatch.js';
import { type LaneJob, replyTarget } from '../pipeline/input.js';
import { settleInbox } from '../pipeline/outcome.js';
import type { BusyMode, SubmitOutcome } from '../sessions/session-lanes.js';
import { chatTurnJob } from '../turn/chat-reply.js';
import type { GatewayDeps } from './gateway-deps.js';

/** The gateway's parts the chat stages reach. */
export interface ChatIntakeHost {
  deps: GatewayDeps;
  handles: DispatchPorts['handles'];
  ingests: ChatIntakePorts['ingests'];
  metrics: GatewayMetrics;
  delivery: GatewayDelivery;
  clarify: ChatClarify;
  batcher: MessageBatcher;
  remember(event: MessageEvent): void;
  commandPorts(userId: string): CommandPorts;
  submitChat(job: LaneJob, mode: BusyMode): SubmitOutcome;
}

export function gatewayChatIntake(host: ChatIntakeHost): ChatIntakePorts {
  const { deps, delivery } = host;
  const { settings, store } = deps;
  return {
    dispatch: { hooks: deps.hooks, handles: host.handles },
    ingests: host.ingests,
    authorize: { env: deps.env, pairing: store.pairing },
    freeResponseChats: settings.freeResponseChats,
    groupContext: new GroupContext(settings.groupContextMessages ?? 20),
    channel: channelSettings(settings, deps.skills, deps.logger),
    metrics: host.metrics,
    commit: store.commit,
    remember: (event) => host.remember(event),
    clarifyReply: (event) => host.clarify.answerTyped(event),
    pairingReply: (input, text) =>
      delivery.send(replyTarget(input.event, input.inboxId), text, settleInbox(input.inboxId, { kind: 'answered' })),
    command: (input, command) => {
      const answer = chatCommandAnswer({ deps, send: delivery.send }, input, (j, m) => host.submitChat(j, m));
      const job = chatTurnJob({ ...input, text: input.event.text });
      return runCommandStage(host.commandPorts(input.event.source.userId), job, answer, command);
    },
    batch: (job) => host.batcher.add(job),
  };
}
