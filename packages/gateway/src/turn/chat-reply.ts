/**
 * A chat's side of the turn stage (the `outbox` sink: chat platforms and the web chat): the typing
 * indicator, reactions and live stream while the turn runs, the message's files for the model, the
 * approvals asked in the chat, then the answer delivered through the outbox with the transcript in
 * the same commit as the outbox rows, and the inbox rows settled.
 */

import { type TurnService, withGeneratedImages } from '@hermes/agent';
import { type Logger, type PlatformAdapter, SURFACE_PLANS } from '@hermes/protocol';
import type { CommitWork, StoreWrite, UnitOfWork } from '@hermes/store';
import type { ChatApprovals } from '../approvals/chat-approvals.js';
import type { ChatClarify } from '../approvals/chat-clarify.js';
import type { DeliveryResult, DeliveryTarget } from '../delivery/deliver.js';
import type { EditCadence } from '../delivery/live-stream.js';
import type { StreamIds } from '../delivery/stream-ids.js';
import { hasAttachments, type PreparedMessage } from '../media/inbound-media.js';
import {
  type ChatTurnJob,
  type GatewayTurnJob,
  type LaneJob,
  type OutboxSink,
  replyTarget,
} from '../pipeline/input.js';
import { type PipelineOutcome, settleInbox } from '../pipeline/outcome.js';
import type { RunControl } from '../sessions/session-lanes.js';
import { failureReply } from './failure-reply.js';
import { withReasoning } from './reasoning-display.js';
import { runtimeFooter, withRuntimeFooter } from './runtime-footer.js';
import type { SinkReply } from './turn.js';
import { type DisplaySettings, TurnDisplay } from './turn-display.js';

/** An answer of exactly this sends nothing (a cron job's "nothing to report", a hook that should stay quiet). */
export const SILENT_MARKER = '[SILENT]';

export interface ChatReplyPorts {
  adapters: ReadonlyMap<string, PlatformAdapter>;
  /** `streamed`: the messages a streamed answer was shown in (edited with the final text) */
  deliver(
    target: DeliveryTarget,
    text: string,
    options: { withEnqueue: UnitOfWork; onSettled: UnitOfWork },
    streamed: readonly string[],
  ): Promise<DeliveryResult>;
  /** display.* for a platform (its streaming override applied) */
  display(platform: string): DisplaySettings;
  /** the message ids of streamed answers, per inbox row (platform state) */
  streamIds: StreamIds;
  /** one edit cadence per chat for every streamed answer */
  cadence: EditCadence;
  commit: CommitWork;
  /** the chat each running session answers (send_message's `origin`) */
  origins: Map<string, DeliveryTarget>;
  turns: Pick<TurnService, 'redact'>;
  logger: Logger;
  now: () => number;
  /** a message's files into the model's user message (media/inbound-media.ts); absent: files are ignored */
  media?: (event: OutboxSink['event'], text: string, signal: AbortSignal) => Promise<PreparedMessage>;
  /** asks the user who started the turn to approve dangerous commands */
  approvals: ChatApprovals;
  /** asks the user who started the turn the clarify tool's questions (buttons or a typed reply) */
  clarify?: Pick<ChatClarify, 'forTurn'>;
  /** true when the chat asked to see the model's thinking (`/reasoning show`; absent: never) */
  reasoningShown?(platform: string, chatId: string): Promise<boolean>;
  /** the `MEDIA:` line of the answer's voice note when the chat's voice mode wants one (turn/voice-answer.ts; absent: never) */
  voiceAnswer?(turn: {
    event: OutboxSink['event'];
    owner: string;
    answer: string;
    signal: AbortSignal;
  }): Promise<string | null>;
}

/** A chat message's lane job as the turn job every surface submits. */
export function chatTurnJob(job: LaneJob): ChatTurnJob {
  const { event } = job;
  const surface = event.platform === 'web' ? 'web' : 'chat';
  return {
    surface,
    who: { platform: event.platform, userId: event.source.userId, chatId: event.source.chatId },
    sessionKey: job.sessionKey,
    input: {
      text: job.text,
      ...(job.instructions ? { instructions: job.instructions } : {}),
      ...(job.toolsets ? { toolsets: job.toolsets } : {}),
    },
    sink: { kind: 'outbox', inboxId: job.inboxId, event, ...(job.joined ? { joined: job.joined } : {}) },
    plan: SURFACE_PLANS[surface],
    acceptedAt: job.acceptedAt,
  };
}

/** The notices about the message's files, then the answer. */
const withNotices = (notices: readonly string[], answer: string): string =>
  notices.length === 0 ? answer : `${notices.join('\n')}\n\n${answer}`;

/** The answer with its voice note's MEDIA line (sent after the text), if any. */
const withVoice = (answer: string, voiceLine: string | null): string =>
  voiceLine === null ? answer : `${answer}\n\n${voiceLine}`;

const outcomeOf = (status: string): PipelineOutcome =>
  status === 'completed'
    ? { kind: 'answered' }
    : status === 'interrupted'
      ? { kind: 'interrupted' }
      : { kind: 'failed' };

/** Starts showing the turn in its chat and prepares the message's files; the reply delivers the answer. */
export async function openChatReply(
  ports: ChatReplyPorts,
  job: GatewayTurnJob,
  sink: OutboxSink,
  sessionId: string,
  control: RunControl,
  owner: string,
  /** false: the message's files are not prepared (a turn refused by the user's limits) */
  withMedia = true,
): Promise<SinkReply> {
  const { event, inboxId } = sink;
  const platform = event.platform;
  ports.origins.set(sessionId, replyTarget(event));
  // the answer's MEDIA files may come from its user's own cache folder (and read_file's roots)
  const target = { ...replyTarget(event, inboxId), mediaOwner: owner };
  const settings = ports.display(platform);
  const startedAt = ports.now();
  let display: TurnDisplay | null = null;
  try {
    // a streamed answer's earlier messages (a restart in mid-stream); a plain answer reads nothing
    const earlier = settings.streaming ? await ports.streamIds.read(platform, inboxId) : [];
    const shown = new TurnDisplay({
      adapter: ports.adapters.get(platform),
      event,
      display: settings,
      ...(target.replyToMessageId ? { replyToMessageId: target.replyToMessageId } : {}),
      existingIds: earlier,
      cadence: ports.cadence,
      remember: async (ids) => {
        await ports.commit([ports.streamIds.write(platform, inboxId, ids)]);
      },
      redact: ports.turns.redact,
      logger: ports.logger,
      now: ports.now,
      holdBack: SILENT_MARKER,
    });
    display = shown;
    shown.start();
    // plain text costs nothing here: only a message with files goes through the media step
    const media =
      withMedia && ports.media && hasAttachments(event)
        ? await ports.media(event, job.input.text, control.signal)
        : null;
    if (media && media.notices.length > 0)
      ports.logger.info({ platform, notices: media.notices }, 'media: files not passed on as sent');
    const settleJoined = (outcome: PipelineOutcome): StoreWrite[] =>
      (sink.joined ?? []).flatMap((id) => settleInbox(id, outcome));
    return {
      ...(media ? { userMessage: media.text, images: media.images } : {}),
      // the user who started the turn is asked in the chat (buttons or /approve, /deny); a timeout denies
      approval: ports.approvals.forTurn(job.sessionKey, event, control.signal),
      // the clarify tool's questions go to the same user in this chat (buttons, or their next message)
      ...(ports.clarify ? { clarify: ports.clarify.forTurn(event) } : {}),
      signal: control.signal,
      takeSteering: control.takeSteering,
      ...(shown.stream ? { onDelta: shown.onDelta } : {}),
      onStep: (toolNames) => shown.tools(toolNames),
      ended: () => shown.finish(),
      resumable: true,
      close: () => {
        shown.close();
        ports.origins.delete(sessionId);
      },
      finish: async ({ result, failure, keep }) => {
        // the messages this answer streamed into, and those an earlier try did (a restart in mid-stream)
        const streamed = shown.stream?.ids ?? earlier;
        const forgetStream: StoreWrite[] = streamed.length > 0 ? [ports.streamIds.clear(platform, inboxId)] : [];
        const transcript = keep?.writes ?? [];
        const outcome = outcomeOf(result.status);
        const markInbox = [...settleInbox(inboxId, outcome), ...settleJoined(outcome), ...forgetStream];
        if (result.status === 'interrupted') {
          await ports.commit([...transcript, ...markInbox]);
          keep?.committed();
          return { answered: false };
        }
        const completed = result.status === 'completed' && result.finalText !== null;
        let answer = completed
          ? withGeneratedImages(result.finalText as string, result.messages) // images image_generate made: attached
          : failureReply(failure());
        if (answer.trim() === SILENT_MARKER) {
          await ports.commit([...transcript, ...markInbox]);
          keep?.committed();
          return { answered: false };
        }
        // the answer spoken (before any thinking is put above it), attached after the text, where files can go
        const voice =
          completed && ports.voiceAnswer && ports.adapters.get(platform)?.sendMedia
            ? await ports.voiceAnswer({ event, owner, answer, signal: control.signal })
            : null;
        if (completed && result.reasoning && (await ports.reasoningShown?.(platform, event.source.chatId)))
          answer = withReasoning(answer, result.reasoning);
        // display.runtime_metadata_footer: after the spoken part, never in the transcript
        if (completed && settings.runtimeFooter) {
          const durationMs = ports.now() - startedAt;
          answer = withRuntimeFooter(answer, runtimeFooter({ model: result.model, usage: result.usage, durationMs }));
        }
        // three commits per answered message: accept; transcript + outbox rows; sent mark + inbox done
        const delivered = await ports.deliver(
          target,
          withVoice(withNotices(media?.notices ?? [], answer), voice),
          // messages joined into this one are finished with the answer's rows: a restart resends it, once
          { withEnqueue: [...transcript, ...settleJoined(outcome)], onSettled: markInbox },
          streamed,
        );
        keep?.committed();
        await shown.settled(result.status === 'completed' && delivered.failed === 0);
        return { answered: delivered.failed === 0 && delivered.sent > 0 };
      },
    };
  } catch (error) {
    display?.close();
    ports.origins.delete(sessionId);
    throw error;
  }
}
