/**
 * The way in for the surfaces without an inbox (the API platform's chat completions and Responses,
 * cron fires, a gateway hook's `runAgent`): each submits a `DirectTurnJob` and awaits its outcome.
 * The stages its plan names run as for a chat message: `pre_gateway_dispatch` (skip, rewrite or
 * allow), the commands (their answer is the job's), then its lane and a run slot; the turn stage
 * does the rest. Authorization happened before (the API's key) or is not needed (the plan says why).
 */
import { randomUUID } from 'node:crypto';
import type { MessageEvent } from '@hermes/protocol';
import { parseCommand } from '../commands/commands.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import { type CommandAnswer, type CommandPorts, runCommandStage } from '../pipeline/command.js';
import { type DispatchPorts, dispatchHook } from '../pipeline/dispatch.js';
import type { DirectOutcome, DirectSink, DirectTurnJob, GatewayTurnJob } from '../pipeline/input.js';
import type { BusyMode, SubmitOutcome } from '../sessions/session-lanes.js';

export interface IntakePorts {
  dispatch: DispatchPorts;
  /** `sessionStore.ingest` writes a dispatch hook started: awaited before the job goes on */
  ingests: { settled(): Promise<void> | undefined };
  metrics: GatewayMetrics;
  /** display.busy_input_mode */
  busyMode: BusyMode;
  accepting(): boolean;
  submit(job: GatewayTurnJob, mode: BusyMode): SubmitOutcome;
  commands(userId: string): CommandPorts;
}

/** A direct job as the `MessageEvent` `pre_gateway_dispatch` sees. */
export function directEvent(job: DirectTurnJob, now: number): MessageEvent {
  const { who } = job;
  return {
    kind: 'text',
    platform: who.platform,
    messageId: randomUUID(),
    text: job.input.text,
    source: { platform: who.platform, chatId: who.chatId, chatType: 'dm', userId: who.userId },
    internal: false,
    receivedAt: now,
    raw: null,
  };
}

/**
 * How a job meets a running turn of its lane: a keyed API session per the busy mode (steering hands
 * text to a turn whose answer this request would never get: it queues); every other lane is the job's own.
 */
function busyModeOf(job: DirectTurnJob, busyMode: BusyMode): BusyMode {
  if (job.surface !== 'completions' || !job.plan.session.apply) return 'queue';
  return busyMode === 'steer' ? 'queue' : busyMode;
}

/** A command's answer is the job's outcome; a text it hands on is a turn whose answer is the job's. */
function directAnswer(ports: IntakePorts, job: DirectTurnJob): CommandAnswer {
  let turnAnswers = false;
  return {
    reply: async (text) => {
      if (!turnAnswers) job.sink.settle({ kind: 'command', text });
    },
    handOn: (text, mode) => {
      const outcome = ports.submit({ ...job, input: { ...job.input, text } }, mode);
      // steered into a running turn: that turn's answer is another job's; this one answers at once
      turnAnswers = outcome !== 'steered';
      if (!turnAnswers) job.sink.settle({ kind: 'command', text: 'Handed to the running answer.' });
      return outcome;
    },
    settle: async () => {
      if (!turnAnswers) job.sink.settle({ kind: 'command', text: '' });
    },
  };
}

/** Runs a direct job's stages up to its lane; the sink is settled with its outcome. */
export async function submitDirect(ports: IntakePorts, job: DirectTurnJob): Promise<void> {
  const { sink, plan, who } = job;
  if (!ports.accepting()) return sink.settle({ kind: 'unavailable' });
  const counters = plan.metrics.apply ? ports.metrics.platform(who.platform) : null;
  counters?.accepted.inc();
  let admitted = job;
  if (plan.dispatch.apply) {
    const dispatched = await dispatchHook(ports.dispatch, directEvent(job, Date.now()));
    await ports.ingests.settled();
    if (dispatched.kind === 'skipped') {
      counters?.ignored('hook_skip');
      return sink.settle({ kind: 'skipped' });
    }
    const { text } = dispatched.event;
    if (text !== job.input.text) admitted = { ...job, input: { ...job.input, text } };
  }
  const command = plan.commands.apply ? parseCommand(admitted.input.text) : null;
  if (command) {
    // a turn's sink is told once the user is within their limits (turn/turn.ts): a 429 is still possible then
    sink.onAdmitted?.();
    await runCommandStage(ports.commands(who.userId), admitted, directAnswer(ports, admitted), command);
    return;
  }
  ports.submit(admitted, busyModeOf(admitted, ports.busyMode));
}

/** A sink whose outcome is awaited: `settle` resolves the promise (once). */
export function awaitedSink(
  kind: DirectSink['kind'],
  options: Omit<DirectSink, 'kind' | 'settle'> = {},
): { sink: DirectSink; outcome: Promise<DirectOutcome> } {
  let resolve: (outcome: DirectOutcome) => void = () => {};
  const outcome = new Promise<DirectOutcome>((r) => {
    resolve = r;
  });
  // once: a command that hands its text on to a turn was admitted already
  let admitted = false;
  const onAdmitted = options.onAdmitted;
  const once = onAdmitted
    ? {
        onAdmitted: () => {
          if (admitted) return;
          admitted = true;
          onAdmitted();
        },
      }
    : {};
  return { sink: { ...options, ...once, kind, settle: (o) => resolve(o) }, outcome };
}
