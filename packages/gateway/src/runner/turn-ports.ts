/**
 * What the gateway's turn stage runs on (turn/turn.ts): the access tiers, the turn service, the
 * session stage, events and metrics, and the chat side of a turn (streamed delivery, display
 * settings, inbound media, the approvals and clarify questions asked in the chat, the origins
 * send_message answers to).
 * `chat.adapters` is filled in once the platforms are set up.
 */

import type { SpeechSynthesizer, TurnService } from '@hermes/agent';
import type { GatewayAccess } from '../access/gateway-access.js';
import type { ChatApprovals } from '../approvals/chat-approvals.js';
import type { ChatClarify } from '../approvals/chat-clarify.js';
import type { DeliveryTarget } from '../delivery/deliver.js';
import { deliverStreamed } from '../delivery/deliver-streamed.js';
import type { GatewayDelivery } from '../delivery/gateway-delivery.js';
import type { GatewayEvents } from '../gateway-hooks/gateway-events.js';
import { mediaStep } from '../media/inbound-media.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { SessionStage } from '../pipeline/session.js';
import type { ChatReplyPorts } from '../turn/chat-reply.js';
import { streamingPorts } from '../turn/display-settings.js';
import { reasoningShown } from '../turn/reasoning-display.js';
import type { TurnStagePorts } from '../turn/turn.js';
import { voiceAnswerLine } from '../turn/voice-answer.js';
import type { GatewayDeps } from './gateway-deps.js';

export interface TurnPortParts {
  deps: GatewayDeps;
  access: GatewayAccess;
  turns: TurnService;
  sessions: SessionStage;
  events: GatewayEvents;
  metrics: GatewayMetrics;
  delivery: GatewayDelivery;
  approvals: ChatApprovals;
  clarify: ChatClarify;
  origins: Map<string, DeliveryTarget>;
  accepting(): boolean;
  now(): number;
}

export function gatewayTurnPorts(parts: TurnPortParts): TurnStagePorts {
  const { deps, turns, now, delivery } = parts;
  const { settings, store, logger } = deps;
  return {
    access: parts.access,
    turns,
    sessions: parts.sessions,
    events: parts.events,
    metrics: parts.metrics,
    commit: store.commit,
    accepting: parts.accepting,
    logger,
    now,
    chat: {
      adapters: new Map(),
      deliver: (target, text, writes, ids) => deliverStreamed(delivery.options(true), target, text, ids, writes),
      ...streamingPorts(settings, store),
      origins: parts.origins,
      turns,
      logger,
      now,
      ...(settings.media ? { media: mediaStep(settings.media) } : {}),
      approvals: parts.approvals,
      clarify: parts.clarify,
      reasoningShown: (platform, chatId) => reasoningShown(store, platform, chatId),
      // voice answers need the outbox's MEDIA files (outboundMedia) to reach the chat
      ...(deps.speech && settings.outboundMedia ? { voiceAnswer: voiceAnswerPort(deps, deps.speech) } : {}),
    },
    users: {
      ownerOf: (identity) => store.identityLinks.ownerOf(identity),
      ...(deps.tierOf ? { tierOf: deps.tierOf } : {}),
    },
  };
}

/** The chat reply's voice answers: the chat's /voice mode, the synthesizer, the asker's media folder. */
function voiceAnswerPort(deps: GatewayDeps, speech: SpeechSynthesizer): NonNullable<ChatReplyPorts['voiceAnswer']> {
  const { store, settings } = deps;
  const ports = {
    speech,
    mode: { platformState: store.platformState, commit: store.commit, defaultMode: settings.voiceAnswers ?? 'auto' },
    cacheDir: settings.cacheDir,
    ...(deps.redact ? { redact: deps.redact } : {}),
    logger: deps.logger,
  };
  return (turn) => voiceAnswerLine(ports, turn);
}
