/**
 * Stage 8, turn: a lane's job in its session (the session stage), the agent turn through the turn
 * service (typing indicator, `agent:*` gateway events), then delivery of the answer with the
 * transcript written in the same commit as the outbox rows.
 */
import { type TurnService, withGeneratedImages } from '@hermes/agent';
import type { Logger, PlatformAdapter } from '@hermes/protocol';
import type { ChatApprovals } from '../approvals/chat-approvals.js';
import type { DeliveryResult, DeliveryTarget } from '../delivery/deliver.js';
import type { EditCadence } from '../delivery/live-stream.js';
import type { StreamIds } from '../delivery/stream-ids.js';
import { failureReply } from '../failure-reply.js';
import type { GatewayEvents } from '../gateway-events.js';
import { hasAttachments, type PreparedMessage } from '../media/inbound-media.js';

// the media step the turn runs, and what the gateway wires it with
export { busyModeFor, cachePorts, mediaStep } from '../media/inbound-media.js';

import type { CommitWork, StoreWrite, UnitOfWork } from '@hermes/store';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { RunControl } from '../session-lanes.js';
import type { LaneJob } from './input.js';
import { replyTarget } from './input.js';
import { type PipelineOutcome, settleInbox } from './outcome.js';
import type { SessionStage } from './session.js';
import { type DisplaySettings, TurnDisplay } from './turn-display.js';

export const SILENT_MARKER = '[SILENT]';
export { TYPING_DELAY_MS, TYPING_INTERVAL_MS } from './turn-display.js';

export interface TurnPorts {
  turns: TurnService;
  sessions: SessionStage;
  events: Pick<GatewayEvents, 'emit'>;
  metrics: GatewayMetrics;
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
  /** commits a unit of work (the group commit on SQLite) */
  commit: CommitWork;
  /** false while the gateway stops: an interrupted turn then stays pending for the next start */
  accepting(): boolean;
  /** the chat each running session answers (send_message's `origin`) */
  origins: Map<string, DeliveryTarget>;
  logger: Logger;
  now: () => number;
  /** a message's files into the model's user message (media/inbound-media.ts); absent: files are ignored */
  media?: (event: LaneJob['event'], text: string, signal: AbortSignal) => Promise<PreparedMessage>;
  /** asks the user who started the turn to approve dangerous commands */
  approvals: ChatApprovals;
}

/** The notices about the message's files, then the answer. */
const withNotices = (notices: readonly string[], answer: string): string =>
  notices.length === 0 ? answer : `${notices.join('\n')}\n\n${answer}`;

export async function runTurnStage(ports: TurnPorts, job: LaneJob, control: RunControl): Promise<PipelineOutcome> {
  const { event, sessionKey } = job;
  const platform = event.platform;
  const session = await ports.sessions.open(sessionKey, platform, event.source.userId);
  const base = { platform, user_id: event.source.userId, session_id: session.id };
  if (session.isNew) ports.events.emit('session:start', { ...base, session_key: sessionKey });
  ports.events.emit('agent:start', { ...base, message: job.text });
  ports.origins.set(session.id, replyTarget(event));
  const adapter = ports.adapters.get(platform);
  const target = replyTarget(event, job.inboxId);
  const settings = ports.display(platform);
  // a streamed answer's earlier messages (a restart in mid-stream); a plain answer reads nothing
  const earlier = settings.streaming ? await ports.streamIds.read(platform, job.inboxId) : [];
  const display = new TurnDisplay({
    adapter,
    event,
    display: settings,
    ...(target.replyToMessageId ? { replyToMessageId: target.replyToMessageId } : {}),
    existingIds: earlier,
    cadence: ports.cadence,
    remember: async (ids) => {
      await ports.commit([ports.streamIds.write(platform, job.inboxId, ids)]);
    },
    redact: ports.turns.redact,
    logger: ports.logger,
    now: ports.now,
    holdBack: SILENT_MARKER,
  });
  display.start();
  let cacheUpdated = false;
  const settleJoined = (outcome: PipelineOutcome): StoreWrite[] =>
    (job.joined ?? []).flatMap((id) => settleInbox(id, outcome));
  const settleAll = (outcome: PipelineOutcome): StoreWrite[] => [
    ...settleInbox(job.inboxId, outcome),
    ...settleJoined(outcome),
  ];
  try {
    // plain text costs nothing here: only a message with files goes through the media step
    const media = ports.media && hasAttachments(event) ? await ports.media(event, job.text, control.signal) : null;
    if (media && media.notices.length > 0)
      ports.logger.info({ platform, notices: media.notices }, 'media: files not passed on as sent');
    const result = await ports.turns.run({
      sessionId: session.id,
      platform,
      userMessage: media?.text ?? job.text,
      ...(media && media.images.length > 0 ? { images: media.images } : {}),
      ...(session.cached.history ? { history: session.cached.history } : {}),
      persist: 'none', // written with the outbox rows below
      stored: true, // right after the history: context summaries apply
      // the user who started the turn is asked in the chat (buttons or /approve, /deny); a timeout denies
      approval: ports.approvals.forTurn(sessionKey, event, control.signal),
      signal: control.signal,
      takeSteering: control.takeSteering,
      ...(display.stream ? { onDelta: display.onDelta } : {}),
      onStep: ({ iteration, toolNames }) => {
        display.tools(toolNames);
        ports.events.emit('agent:step', { ...base, iteration, tool_names: toolNames });
      },
    });
    await display.finish();
    // the messages this answer streamed into, and those an earlier try did (a restart in mid-stream)
    const streamed = display.stream?.ids ?? earlier;
    const forgetStream = (): StoreWrite[] =>
      streamed.length > 0 ? [ports.streamIds.clear(platform, job.inboxId)] : [];
    const history = result.history;
    const counters = ports.metrics.platform(platform);
    counters.turnEnded(result.status);
    control.settle(); // only delivery is left: a new message now queues behind this answer
    // cut off by shutdown: leave it pending (and out of the transcript) so the next start redoes it once
    if (result.status === 'interrupted' && !ports.accepting()) return { kind: 'cut_off' };
    const appendTranscript: StoreWrite = {
      kind: 'transcripts.append',
      sessionId: session.id,
      messages: result.messages,
    };
    const cacheAppend = () => {
      ports.sessions.cache.appended(sessionKey, session.id, history, result.messages, ports.now());
      cacheUpdated = true;
    };
    ports.events.emit('agent:end', {
      ...base,
      message: job.text,
      response: ports.turns.redact(result.finalText ?? ''),
    });
    const outcome: PipelineOutcome =
      result.status === 'completed'
        ? { kind: 'answered' }
        : result.status === 'interrupted'
          ? { kind: 'interrupted' }
          : { kind: 'failed' };
    if (result.status === 'interrupted') {
      await ports.commit([appendTranscript, ...settleAll(outcome), ...forgetStream()]);
      cacheAppend();
      return outcome;
    }
    const answer =
      result.status === 'completed' && result.finalText !== null
        ? withGeneratedImages(result.finalText, result.messages) // images image_generate made: attached
        : failureReply(result.error, result.status, ports.logger);
    const markInbox = [...settleAll(outcome), ...forgetStream()];
    if (answer.trim() === SILENT_MARKER) {
      await ports.commit([appendTranscript, ...markInbox]);
      cacheAppend();
      return outcome;
    }
    // three commits per answered message: accept; transcript + outbox rows; sent mark + inbox done
    const delivered = await ports.deliver(
      target,
      withNotices(media?.notices ?? [], answer),
      {
        // messages joined into this one are finished with the answer's rows: a restart resends it, once
        withEnqueue: [appendTranscript, ...settleJoined(outcome)],
        onSettled: markInbox,
      },
      streamed,
    );
    cacheAppend();
    await display.settled(result.status === 'completed' && delivered.failed === 0);
    if (delivered.failed === 0 && delivered.sent > 0) counters.answered((ports.metrics.now() - job.acceptedAt) / 1000);
    return outcome;
  } finally {
    // a turn that ended without a known commit leaves the cached transcript uncertain
    if (!cacheUpdated) ports.sessions.cache.forget(sessionKey);
    display.close();
    ports.origins.delete(session.id);
  }
}
