/**
 * A job the model created, said in the chat it was created from (a job an injected prompt made
 * does not stay hidden): its schedule, and a *Cancel job* button where the platform has buttons,
 * which its creator or an admin may press. Elsewhere the text says how to cancel it.
 */
import { actionButtonData } from '@hermes/protocol';
import type { ActionHandler } from '../../delivery/action-buttons.js';
import type { CronJobsPort } from './cron-jobs-port.js';
import type { jobJson } from './jobs.js';

/** The action a Cancel button carries (`hact:cron-cancel:<job id>`). */
export const CRON_CANCEL_ACTION = 'cron-cancel';

type JobJson = ReturnType<typeof jobJson>;

function scheduledLine(job: JobJson): string {
  const next = job.next_run_at === null ? '' : `, next run ${job.next_run_at}`;
  return `⏰ The assistant scheduled a job here: "${job.name}" (${job.schedule}${next}), id ${job.id}.`;
}

/** The announcement as Markdown text (platforms without buttons, or when the buttons could not be sent). */
export function announcementText(job: JobJson): string {
  return [
    scheduledLine(job),
    `To cancel it, ask me to remove job ${job.id}, or run \`hermes cron remove ${job.id}\` on the gateway's machine.`,
  ].join('\n');
}

/** The announcement with its Cancel button (plain text). */
export function announcementWithButton(job: JobJson): {
  text: string;
  buttons: { label: string; data: string; style: 'danger' }[];
} {
  return {
    text: [
      scheduledLine(job),
      `Whoever asked for it, or an admin, can cancel it with the button below (or: hermes cron remove ${job.id}).`,
    ].join('\n'),
    buttons: [{ label: 'Cancel job', data: actionButtonData(CRON_CANCEL_ACTION, job.id), style: 'danger' }],
  };
}

/** A press of Cancel: the job's creator or an admin removes it; anyone else is told who may. */
export function cronCancelHandler(ports: { jobs: CronJobsPort; changed(): void }): ActionHandler {
  return async (press, presser) => {
    const job = await ports.jobs.get(press.arg);
    if (job === undefined) return `Job ${press.arg} is gone already.`;
    if (presser.tier !== 'admin' && (job.creator === null || job.creator !== presser.owner)) {
      return 'Only whoever asked for this job, or an admin, can cancel it.';
    }
    await ports.jobs.remove(job.id);
    ports.changed();
    return `Cancelled job "${job.name}" (${job.id}).`;
  };
}
