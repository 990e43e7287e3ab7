/** The ports the command stage gets from a gateway (the lanes, sessions, approvals), and a chat message's answers. */

import { type AccountProfile, accountLimitsText, type TurnService } from '@hermes/agent';
import type { PlatformState } from '@hermes/protocol';
import type { UnitOfWork } from '@hermes/store';
import type { GatewayAccess } from '../access/gateway-access.js';
import type { ChatApprovals } from '../approvals/chat-approvals.js';
import type { DeliveryTarget } from '../delivery/deliver.js';
import type { GatewayEvents } from '../gateway-hooks/gateway-events.js';
import type { CommandAnswer, CommandPorts } from '../pipeline/command.js';
import { type LaneJob, replyTarget, type StageInput } from '../pipeline/input.js';
import { settleInbox } from '../pipeline/outcome.js';
import type { SessionStage } from '../pipeline/session.js';
import type { GatewayDeps } from '../runner/gateway-deps.js';
import type { BusyMode, SubmitOutcome } from '../sessions/session-lanes.js';
import { reasoningCommand } from '../turn/reasoning-display.js';
import { voiceCommand } from '../turn/voice-mode.js';
import { identityOfWho } from '../users/identity.js';
import { linkCommand, unlinkCommand } from '../users/link-command.js';
import { commandServices } from './command-services.js';
import type { UsageCommandPorts } from './usage-command.js';

export interface CommandPortsHost {
  deps: Pick<
    GatewayDeps,
    | 'store'
    | 'settings'
    | 'logger'
    | 'pluginSummary'
    | 'pluginCommands'
    | 'setHomeChannel'
    | 'sessionGuard'
    | 'models'
    | 'env'
    | 'skills'
    | 'speech'
    | 'now'
    | 'limitsNow'
  >;
  events: GatewayEvents;
  lanes: { busy(key: string): boolean; stop(key: string): boolean };
  /** drops the session's messages still waiting for their batch window (pipeline/batch.ts) */
  batcher: { drop(key: string): boolean };
  sessions: Pick<SessionStage, 'reset' | 'open' | 'switchTo' | 'forgetHistory'>;
  approvals: Pick<ChatApprovals, 'forgetSession' | 'answerText'>;
  platformStates(): Record<string, PlatformState>;
  /** the turn service (`/compress`) */
  turns: Pick<TurnService, 'compress'>;
  /** the senders' tiers (admin-only commands) */
  access: Pick<GatewayAccess, 'userOf' | 'excludedCommands'>;
  /** delivers text; `onSettled` is committed with its last row's mark */
  send(target: DeliveryTarget, text: string, onSettled?: UnitOfWork): Promise<unknown>;
}

/** `userId`: who sent the command (the session:* events of /new name them) */
export function gatewayCommandPorts(host: CommandPortsHost, userId: string): CommandPorts {
  const { store, settings, logger } = host.deps;
  return {
    logger,
    events: host.events,
    busy: (key) => host.lanes.busy(key),
    busyMode: settings.busyMode,
    access: host.access,
    ...(settings.quickCommands ? { quickCommands: settings.quickCommands } : {}),
    services: commandServices({
      sessions: store.sessions,
      transcripts: store.transcripts,
      model: settings.turn.model,
      compress: (sessionId, platform) => host.turns.compress(sessionId, platform),
      platformStates: () => host.platformStates(),
      busy: (key) => host.lanes.busy(key),
      // both: parts of a paste still waiting, and the running turn (with what is queued behind it)
      stop: (key) => host.batcher.drop(key) || host.lanes.stop(key),
      ...(host.deps.sessionGuard ? { stopElsewhere: host.deps.sessionGuard.stopElsewhere } : {}),
      reset: (key, platform) => {
        host.approvals.forgetSession(key);
        return host.sessions.reset(key, platform, userId);
      },
      link: (c, unlink) => {
        const ports = { links: store.identityLinks, now: Date.now };
        return unlink ? unlinkCommand(ports, c) : linkCommand(ports, c);
      },
      answerApproval: (c, answer) =>
        host.approvals.answerText(c.platform, c.chatId, c.userId, answer, (c.tier ?? 'admin') === 'admin'),
      ...(host.deps.models
        ? {
            modelCommand: {
              models: host.deps.models,
              env: host.deps.env,
              activeSession: async (key: string) => (await store.sessions.activeByKey(key))?.id ?? null,
              openSession: async (c) => (await host.sessions.open(c.sessionKey, c.platform, c.userId)).id,
            },
          }
        : {}),
      reasoning: (c) => reasoningCommand({ platformState: store.platformState, commit: store.commit }, c),
      voice: (c) =>
        voiceCommand(
          {
            platformState: store.platformState,
            commit: store.commit,
            defaultMode: host.deps.settings.voiceAnswers ?? 'auto',
          },
          c,
          host.deps.speech?.unavailable() ?? 'text to speech is not set up in this gateway',
        ),
      usage: usagePorts(host.deps),
      sessionCommands: {
        sessions: store.sessions,
        transcripts: store.transcripts,
        busy: (key) => host.lanes.busy(key),
        switchTo: (key, platform, user, id) => host.sessions.switchTo(key, platform, user, id),
        forgetHistory: (key) => host.sessions.forgetHistory(key),
        now: Date.now,
      },
      pluginSummary: host.deps.pluginSummary,
      pluginCommands: host.deps.pluginCommands,
      setHomeChannel: host.deps.setHomeChannel,
      ...(host.deps.skills ? { skills: host.deps.skills } : {}),
    }),
  };
}

/** `/usage`'s ports: the store's sums and counters, the access settings, the session's provider. */
function usagePorts(deps: CommandPortsHost['deps']): UsageCommandPorts {
  const { store, models } = deps;
  return {
    sessions: store.sessions,
    transcripts: store.transcripts,
    ownerOf: (identity) => store.identityLinks.ownerOf(identity),
    identityOf: (c) => identityOfWho(c.platform, c.userId),
    access: deps.settings.access,
    counters: store.usageCounters,
    now: deps.limitsNow ?? deps.now ?? Date.now,
    ...(models
      ? {
          async sessionModel(sessionId: string | null) {
            const choice = await models.current(sessionId);
            return { model: choice.model, profile: models.providers.profile(choice.provider) };
          },
          accountLimits: (profile: AccountProfile) => accountLimitsText(profile),
        }
      : {}),
  };
}

/** How a chat message's command is answered: delivered under its inbox row; a handed-on text goes to its lane. */
export function chatCommandAnswer(
  host: Pick<CommandPortsHost, 'deps' | 'send'>,
  input: StageInput,
  submit: (job: LaneJob, mode: BusyMode) => SubmitOutcome,
): CommandAnswer {
  const { store, logger } = host.deps;
  return {
    reply: async (text, settleWith) => {
      if (settleWith === null) await host.send(replyTarget(input.event), text);
      else await host.send(replyTarget(input.event, input.inboxId), text, settleInbox(input.inboxId, settleWith));
    },
    handOn: (text, mode) => {
      // the inbox row now belongs to a lane (counts as an attempt, like a resume), committed in order
      // before the lane's later marks (the group commit keeps the order units were issued in)
      store.commit([{ kind: 'inbox.mark', id: input.inboxId, status: 'processing' }]).catch((err: unknown) => {
        logger.error({ err, inboxId: input.inboxId }, 'cannot mark an inbox row processing');
      });
      return submit({ ...input, text }, mode);
    },
    settle: (outcome) => store.commit(settleInbox(input.inboxId, outcome)),
  };
}
