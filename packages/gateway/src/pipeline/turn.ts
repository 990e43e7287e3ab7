/**
 * Stage 8, turn: a lane's job in its session (the session stage), the agent turn through the turn
 * service (typing indicator, `agent:*` gateway events), then delivery of the answer with the
 * transcript written in the same commit as the outbox rows.
 */
import type { TurnService } from '@hermes/agent';
import type { Logger, PlatformAdapter } from '@hermes/protocol';
import type { DeliveryResult, DeliveryTarget } from '../delivery/deliver.js';
import type { EditCadence } from '../delivery/live-stream.js';
import type { StreamIds } from '../delivery/stream-ids.js';
import { failureReply } from '../failure-reply.js';
import type { GatewayEvents } from '../gateway-events.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { TranscriptsPort } from '../ports.js';
import type { RunControl } from '../session-lanes.js';
import type { LaneJob } from './input.js';
import { replyTarget } from './input.js';
import type { PipelineOutcome } from './outcome.js';
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
  transcripts: Pick<TranscriptsPort, 'append'>;
  transaction<T>(fn: () => T): T;
  settle(inboxId: number, outcome: PipelineOutcome): void;
  /** `streamed`: the messages a streamed answer was shown in (edited with the final text) */
  deliver(
    target: DeliveryTarget,
    text: string,
    options: { withEnqueue: () => void; onSettled: () => void },
    streamed: readonly string[],
  ): Promise<DeliveryResult>;
  /** display.* for a platform (its streaming override applied) */
  display(platform: string): DisplaySettings;
  /** the message ids of streamed answers, per inbox row (platform state) */
  streamIds: StreamIds;
  /** one edit cadence per chat for every streamed answer */
  cadence: EditCadence;
  /** group commit of a small write (a streamed answer's message ids) */
  commit<T>(fn: () => T): Promise<T>;
  /** false while the gateway stops: an interrupted turn then stays pending for the next start */
  accepting(): boolean;
  /** the chat each running session answers (send_message's `origin`) */
  origins: Map<string, DeliveryTarget>;
  logger: Logger;
  now: () => number;
}

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
  const earlier = settings.streaming ? ports.streamIds.read(platform, job.inboxId) : [];
  const display = new TurnDisplay({
    adapter,
    event,
    display: settings,
    ...(target.replyToMessageId ? { replyToMessageId: target.replyToMessageId } : {}),
    existingIds: earlier,
    cadence: ports.cadence,
    remember: (ids) => ports.commit(() => ports.streamIds.write(platform, job.inboxId, ids)),
    redact: ports.turns.redact,
    logger: ports.logger,
    now: ports.now,
    holdBack: SILENT_MARKER,
  });
  display.start();
  let cacheUpdated = false;
  try {
    const result = await ports.turns.run({
      sessionId: session.id,
      platform,
      userMessage: job.text,
      ...(session.cached.history ? { history: session.cached.history } : {}),
      persist: 'none', // written with the outbox rows below
      // nobody to ask on a messaging platform: denied (unless yolo), with the approval hooks fired
      approval: { surface: 'gateway', key: sessionKey },
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
    const forgetStream = () => {
      if (streamed.length > 0) ports.streamIds.clear(platform, job.inboxId);
    };
    const history = result.history;
    const counters = ports.metrics.platform(platform);
    counters.turnEnded(result.status);
    control.settle(); // only delivery is left: a new message now queues behind this answer
    // cut off by shutdown: leave it pending (and out of the transcript) so the next start redoes it once
    if (result.status === 'interrupted' && !ports.accepting()) return { kind: 'cut_off' };
    const appendTranscript = () => ports.transcripts.append(session.id, result.messages);
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
      ports.transaction(() => {
        appendTranscript();
        ports.settle(job.inboxId, outcome);
        forgetStream();
      });
      cacheAppend();
      return outcome;
    }
    const answer =
      result.status === 'completed' && result.finalText !== null
        ? result.finalText
        : failureReply(result.error, result.status, ports.logger);
    const markInbox = () => {
      ports.settle(job.inboxId, outcome);
      forgetStream();
    };
    if (answer.trim() === SILENT_MARKER) {
      ports.transaction(() => {
        appendTranscript();
        markInbox();
      });
      cacheAppend();
      return outcome;
    }
    // three commits per answered message: accept; transcript + outbox rows; sent mark + inbox done
    const delivered = await ports.deliver(
      target,
      answer,
      { withEnqueue: appendTranscript, onSettled: markInbox },
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
