/**
 * One fire of a job: `cron:start`, the job's prompt as a fresh agent turn (or a command, or skipped
 * by a dispatch hook: recorded `silent`), the answer delivered through the outbox under the fire's
 * inbox row (so a resend never duplicates it), `[SILENT]` sending nothing, the result recorded, and after `cron.max_failures` failures in a row the job
 * paused and its owner told (a one-shot's failure is told at once); then `cron:end`.
 */

import type { Logger } from '@hermes/protocol';
import type { CronFireStatus, CronJobRow } from '@hermes/store';
import type { DeliveryResult, DeliveryTarget } from '../../delivery/deliver.js';
import type { GatewayEvents } from '../../gateway-hooks/gateway-events.js';
import { SILENT_MARKER } from '../../turn/chat-reply.js';
import type { CronJobsPort } from './cron-jobs-port.js';

export interface CronTurnResult {
  /** `skipped`: the pre-run script's wake gate or a pre_gateway_dispatch hook skipped the run (recorded `silent`, nothing sent) */
  status: 'completed' | 'failed' | 'interrupted' | 'skipped';
  text: string | null;
  error?: string;
  /** why a skipped run was skipped (default: a pre_gateway_dispatch hook) */
  reason?: string;
}

export interface FirePorts {
  jobs: CronJobsPort;
  runTurn(job: CronJobRow, signal: AbortSignal): Promise<CronTurnResult>;
  send(target: DeliveryTarget, text: string): Promise<DeliveryResult>;
  /** the target, null for `none`, or why it cannot be reached */
  resolve(deliver: string): DeliveryTarget | null | string;
  events: GatewayEvents;
  logger: Logger;
  maxFailures: number;
}

export interface Claim {
  fireId: number;
  inboxId: number;
  slotTime: number;
}

/** Runs one claimed fire to its end; never throws. */
export async function runFire(ports: FirePorts, job: CronJobRow, claim: Claim, signal: AbortSignal): Promise<void> {
  const log = ports.logger.child({ cronJob: job.id });
  ports.events.emit('cron:start', {
    job_id: job.id,
    name: job.name,
    schedule: job.schedule,
    slot_time: new Date(claim.slotTime).toISOString(),
  });
  let status: CronFireStatus;
  let error: string | null = null;
  let response = '';
  try {
    const result = await ports.runTurn(job, signal);
    if (result.status === 'skipped') {
      status = 'silent';
      error = result.reason ?? 'skipped by a pre_gateway_dispatch hook';
      await ports.jobs.finishFire(claim.fireId, 'silent', { error });
    } else if (result.status !== 'completed' || result.text === null) {
      status = result.status === 'interrupted' ? 'interrupted' : 'failed';
      error = result.error ?? (status === 'interrupted' ? 'the gateway stopped during the run' : 'no answer');
      await ports.jobs.finishFire(claim.fireId, status, { error });
    } else if (result.text.trim() === SILENT_MARKER) {
      status = 'silent';
      response = SILENT_MARKER;
      await ports.jobs.finishFire(claim.fireId, 'silent', { answer: result.text });
    } else {
      response = result.text;
      await ports.jobs.finishFire(claim.fireId, 'answered', { answer: result.text });
      ({ status, error } = await deliverAnswer(ports, job, claim, result.text));
    }
  } catch (err) {
    status = 'failed';
    error = err instanceof Error ? err.message : String(err);
    await ports.jobs.finishFire(claim.fireId, 'failed', { error });
  }
  const failures = await ports.jobs.recordResult(job.id, status, error);
  if (status === 'failed') log.warn({ error, failures }, `cron job ${job.id} (${job.name}) failed: ${error}`);
  else log.info({ status }, `cron job ${job.id} (${job.name}) ran: ${status}`);
  if (status === 'failed' && job.kind === 'once') {
    // a one-shot has no next run to get it right: its chat hears of the failure now
    await tellOwner(ports, job, `⚠️ Scheduled job "${job.name}" (${job.id}) failed: ${error ?? 'unknown error'}`);
  } else if (status === 'failed' && failures >= ports.maxFailures && job.state === 'active') {
    await ports.jobs.setState(job.id, 'paused');
    ports.logger.warn({ cronJob: job.id, failures }, `cron job ${job.id} paused after ${failures} failures in a row`);
    const text =
      `⏸ Scheduled job "${job.name}" (${job.id}) was paused after ${failures} failed runs in a row. ` +
      `Last error: ${error ?? 'unknown error'}\nResume it with \`hermes cron resume ${job.id}\` (or ask me to resume it).`;
    await tellOwner(ports, job, text);
  }
  ports.events.emit('cron:end', { job_id: job.id, name: job.name, status, response });
}

/** Sends a stored answer (also used at start for fires whose answer was not yet delivered). */
export async function deliverAnswer(
  ports: Pick<FirePorts, 'jobs' | 'send' | 'resolve'>,
  job: Pick<CronJobRow, 'deliver'>,
  claim: Pick<Claim, 'fireId' | 'inboxId'>,
  answer: string,
): Promise<{ status: CronFireStatus; error: string | null }> {
  const target = ports.resolve(job.deliver);
  if (target === null) {
    await ports.jobs.finishFire(claim.fireId, 'delivered');
    return { status: 'delivered', error: null };
  }
  if (typeof target === 'string') {
    const error = `cannot deliver to ${job.deliver}: ${target}`;
    await ports.jobs.finishFire(claim.fireId, 'failed', { error });
    return { status: 'failed', error };
  }
  const sent = await ports.send({ ...target, inboxId: claim.inboxId }, answer);
  if (sent.failed > 0) {
    const error = `not delivered to ${job.deliver}: ${sent.errors.join('; ')}`;
    await ports.jobs.finishFire(claim.fireId, 'failed', { error });
    return { status: 'failed', error };
  }
  await ports.jobs.finishFire(claim.fireId, 'delivered');
  return { status: 'delivered', error: null };
}

/** Says `text` where the job delivers (or, delivering nowhere, in the chat that created it). */
async function tellOwner(ports: FirePorts, job: CronJobRow, text: string): Promise<void> {
  const where = [job.deliver, job.owner].map((d) => ports.resolve(d)).find((t) => t !== null && typeof t !== 'string');
  if (!where || typeof where === 'string') {
    ports.logger.warn({ cronJob: job.id }, `cron job ${job.id}: nowhere to tell its owner (${job.owner}): ${text}`);
    return;
  }
  const sent = await ports.send(where, text);
  if (sent.failed > 0)
    ports.logger.warn({ cronJob: job.id, errors: sent.errors }, 'the notice to its owner was not delivered');
}

/**
 * At start: fires a stopped process left behind. `running` ones were cut off: their slot was
 * claimed, so they are marked interrupted, not run again; `answered` ones are delivered (the outbox
 * rows under the fire's inbox row make a resend post only what was not sent).
 */
export async function recoverFires(ports: Pick<FirePorts, 'jobs' | 'send' | 'resolve'>): Promise<void> {
  const { jobs } = ports;
  for (const row of await jobs.unfinishedFires()) {
    if (row.status === 'running') {
      await jobs.finishFire(row.id, 'interrupted', { error: 'the gateway stopped during the run' });
      continue;
    }
    const job = await jobs.get(row.jobId);
    if (!job || row.answer === null || row.inboxId === null) {
      await jobs.finishFire(row.id, 'failed', { error: 'the job or its answer is gone' });
      continue;
    }
    await deliverAnswer(ports, job, { fireId: row.id, inboxId: row.inboxId }, row.answer);
  }
}
