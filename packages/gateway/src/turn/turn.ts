/**
 * Stage 8, the turn: THE place the gateway runs an agent turn, for every surface. A lane's job
 * (`GatewayTurnJob`) gets its session (the session stage, when its plan has it; a conversation its
 * sink keeps; else a turn nothing is stored for), the `agent:*` gateway events and the platform
 * metrics, runs through the turn service, and its result goes to its sink: a chat's outbox
 * (turn/chat-reply.ts) or an awaited answer (turn/direct-reply.ts), with the user-facing
 * failure text made here, once.
 */
import type { ServedTurn, TurnApproval, TurnImage, TurnRequest, TurnService } from '@hermes/agent';
import { type ChatMessage, type ClarifyPrompt, type Logger, splitIdentity } from '@hermes/protocol';
import type { CommitWork, StoreWrite } from '@hermes/store';
import type { GatewayAccess } from '../access/gateway-access.js';
import type { GatewayEvents } from '../gateway-hooks/gateway-events.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { GatewayTurnJob } from '../pipeline/input.js';
import type { SessionStage } from '../pipeline/session.js';
import type { RunControl } from '../sessions/session-lanes.js';
import { type TurnUserPorts, turnUser } from '../users/turn-user.js';
import { type ChatReplyPorts, openChatReply } from './chat-reply.js';
import { openDirectReply } from './direct-reply.js';
import { failureMessage } from './failure-reply.js';

export { SILENT_MARKER } from './chat-reply.js';
export { TYPING_DELAY_MS, TYPING_INTERVAL_MS } from './turn-display.js';

/** The session a turn runs in. */
export interface TurnSession {
  id: string;
  key: string;
  isNew: boolean;
  /** the earlier messages (absent: read from the transcript) */
  history: readonly ChatMessage[] | undefined;
  /** the session stage's: its transcript gets the turn's messages (context summaries apply) */
  stored: boolean;
}

/** What the turn stage hands the sink once the model is done. */
export interface FinishedTurn {
  result: ServedTurn;
  /** the answer, redacted (null: none) */
  text: string | null;
  /** the user-facing text of a turn without an answer (logged with its detail, once) */
  failure(): string;
  /** a stored session's transcript writes (the sink commits them with its own), then the cache update */
  keep: { writes: StoreWrite[]; committed(): void } | null;
}

/** What a sink gives the turn it answers. */
export interface SinkReply {
  /** the user message as the model gets it (a chat's files inlined); absent: the job's text */
  userMessage?: string;
  images?: readonly TurnImage[];
  approval: TurnApproval;
  /** asks the turn's user the clarify tool's questions (a chat); absent: the turn is not offered clarify */
  clarify?: ClarifyPrompt;
  signal: AbortSignal;
  takeSteering?: () => string[];
  onDelta?: (text: string) => void;
  onStep?: (toolNames: string[]) => void;
  /** the model is done: stop showing progress (a chat's typing and live stream) */
  ended?(): Promise<void>;
  /** the result out (delivered, answered, stored); `answered`: it reached its reader */
  finish(turn: FinishedTurn): Promise<{ answered: boolean }>;
  /** the turn is over, whatever happened */
  close(): void;
  /** cut off by shutdown, this job stays pending for the next start (a chat's inbox row): nothing is finished */
  resumable: boolean;
}

export interface TurnStagePorts {
  turns: TurnService;
  sessions: SessionStage;
  /** `heard`, when the events have it: no payload is built for an event nothing listens to */
  events: Pick<GatewayEvents, 'emit'> & Partial<Pick<GatewayEvents, 'heard'>>;
  metrics: GatewayMetrics;
  /** commits a unit of work (the group commit on SQLite) */
  commit: CommitWork;
  /** false while the gateway stops: an interrupted chat turn then stays pending for the next start */
  accepting(): boolean;
  logger: Logger;
  now: () => number;
  /** what a chat's answer needs (display, media, approvals, delivery) */
  chat: ChatReplyPorts;
  /** who a job is for: its identity's owner and tier */
  users: TurnUserPorts;
  /** the user's tier (their tools) and limits (access/) */
  access: GatewayAccess;
}

/** A turn refused by the user's limits: its text is the answer, nothing was asked of the model. */
function refusedTurn(text: string): ServedTurn {
  return {
    status: 'completed',
    finalText: text,
    messages: [],
    iterations: 0,
    error: null,
    usage: null,
    history: [],
    model: '',
  };
}

/** Whether an emit would reach a handler (asked at each emit: the payload is built only then). */
const heard = (events: TurnStagePorts['events'] | null): events is TurnStagePorts['events'] =>
  events !== null && events.heard?.() !== false;

/** The job's session: the session stage's, its sink's conversation, or a turn nothing is stored for. */
async function openSession(ports: TurnStagePorts, job: GatewayTurnJob): Promise<TurnSession> {
  const { who, sessionKey } = job;
  if (job.plan.session.apply) {
    const s = await ports.sessions.open(sessionKey, who.platform, who.userId);
    return { id: s.id, key: sessionKey, isNew: s.isNew, history: s.cached.history ?? undefined, stored: true };
  }
  const conversation = job.sink.kind === 'outbox' ? undefined : job.sink.conversation;
  if (conversation) {
    const c = await conversation.open();
    return { id: c.sessionId, key: c.sessionKey, isNew: c.isNew, history: c.history, stored: false };
  }
  return { id: sessionKey, key: sessionKey, isNew: false, history: job.input.history ?? [], stored: false };
}

/** Runs a lane's job to its end; a direct sink is always settled. */
export async function runTurnStage(ports: TurnStagePorts, job: GatewayTurnJob, control: RunControl): Promise<void> {
  try {
    await runTurn(ports, job, control);
  } catch (error) {
    if (job.sink.kind === 'outbox') throw error;
    job.sink.settle({ kind: 'error', error });
  }
}

async function runTurn(ports: TurnStagePorts, job: GatewayTurnJob, control: RunControl): Promise<void> {
  const { who, plan } = job;
  const session = await openSession(ports, job);
  // the owner of the sender's identity (linked identities are one user) with the tier access gives them
  const subject = who.onBehalfOf ? (splitIdentity(who.onBehalfOf) ?? who) : who;
  const owner = await turnUser(ports.users, subject.platform, subject.userId);
  const user = { key: owner.key, tier: (await ports.access.userOf(subject)).tier };
  const events = plan.events.apply ? ports.events : null;
  const base = { platform: who.platform, user_id: who.userId, session_id: session.id };
  if (session.isNew && heard(events)) events.emit('session:start', { ...base, session_key: session.key });
  if (heard(events)) events.emit('agent:start', { ...base, message: job.input.text });
  let cacheUpdated = false;
  let reply: SinkReply | null = null;
  try {
    const { sink: out } = job;
    const sink = out.kind === 'outbox' ? null : out;
    // over a limit: the user is told when it resets, and no model request is made
    const admission = await ports.access.admit(user);
    if (out.kind !== 'outbox') {
      if (!admission.ok) {
        // an awaited answer (the API: 429 with Retry-After) says it itself; nothing was started
        control.settle();
        out.settle({ kind: 'limited', text: admission.text, retryAfterS: admission.retryAfterS });
        return;
      }
      out.onAdmitted?.();
    }
    reply =
      out.kind === 'outbox'
        ? await openChatReply(ports.chat, job, out, session.id, control, user.key, admission.ok)
        : openDirectReply(ports, out, session.id, control);
    if (!admission.ok) {
      await reply.ended?.();
      control.settle();
      const { text } = admission;
      await reply.finish({ result: refusedTurn(text), text, keep: null, failure: () => text });
      return;
    }
    const { onDelta, onStep, takeSteering } = reply;
    // the request's optional fields set one by one (no spread of an empty object for each one absent)
    const request: TurnRequest = {
      sessionId: session.id,
      platform: who.platform,
      user,
      userMessage: reply.userMessage ?? job.input.text,
      persist: 'none', // the sink stores it (a chat: with its outbox rows)
      stored: session.stored, // right after the history: context summaries apply
      approval: reply.approval,
      signal: reply.signal,
      onStep: ({ iteration, toolNames }) => {
        onStep?.(toolNames);
        if (heard(events)) events.emit('agent:step', { ...base, iteration, tool_names: toolNames });
      },
    };
    if (reply.images && reply.images.length > 0) request.images = reply.images;
    if (session.history) request.history = session.history;
    if (job.input.instructions) request.instructions = job.input.instructions;
    if (job.input.toolsets) request.toolsets = job.input.toolsets;
    if (reply.clarify) request.clarify = reply.clarify;
    if (takeSteering) request.takeSteering = takeSteering;
    if (onDelta) request.onDelta = onDelta;
    if (sink?.tools) request.tools = sink.tools;
    if (sink?.memory === false) request.memory = false;
    if (sink?.maxIterations !== undefined) request.maxIterations = sink.maxIterations;
    if (sink?.logger) request.logger = sink.logger;
    const result = await ports.turns.run(request);
    await reply.ended?.();
    await ports.access.record(user, result.usage, result.model).catch((err: unknown) => {
      ports.logger.warn({ err, user: user.key }, "cannot record a turn's usage");
    });
    const counters = plan.metrics.apply ? ports.metrics.platform(who.platform) : null;
    counters?.turnEnded(result.status);
    control.settle(); // only the answer is left: a new message now queues behind it
    // cut off by shutdown: left pending (and out of the transcript) so the next start redoes it once
    if (result.status === 'interrupted' && reply.resumable && !ports.accepting()) return;
    const text = result.finalText === null ? null : ports.turns.redact(result.finalText);
    if (heard(events)) events.emit('agent:end', { ...base, message: job.input.text, response: text ?? '' });
    // the turn's reported tokens join the session's sums in the append's own UPDATE (`/usage`)
    const transcript: StoreWrite = {
      kind: 'transcripts.append',
      sessionId: session.id,
      messages: result.messages,
      tokens: result.usage,
    };
    const keep = session.stored
      ? {
          writes: [transcript],
          committed: () => {
            ports.sessions.cache.appended(session.key, session.id, result.history, result.messages, ports.now());
            cacheUpdated = true;
          },
        }
      : null;
    const logger = sink?.logger ?? ports.logger;
    let failure: string | null = null;
    const finished = await reply.finish({
      result,
      text,
      keep,
      failure: () => {
        failure ??= plan.failure_text.apply ? failureMessage(result.error, result.status, logger) : result.status;
        return failure;
      },
    });
    if (finished.answered) counters?.answered((ports.metrics.now() - job.acceptedAt) / 1000);
  } finally {
    // a turn that ended without a known commit leaves the cached transcript uncertain
    if (session.stored && !cacheUpdated) ports.sessions.cache.forget(session.key);
    reply?.close();
  }
}
