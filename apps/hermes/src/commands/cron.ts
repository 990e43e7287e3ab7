/**
 * `hermes cron add|list|remove|pause|resume|run` (`edit`: cron-edit.ts) on the state backend
 * (state.db, or PostgreSQL with state.backend postgres). A change is signalled to the running
 * gateway of this HERMES_HOME, whose scheduler re-reads the table at once (and every 2 s anyway,
 * for changes from elsewhere); `run` marks a job due, so the gateway fires it now (or at its next
 * start), through its platforms and outbox.
 */
import { addJob, jobJson, machineTimezone, resumeJob, ScheduleError } from '@hermes/gateway';
import { EXIT } from '@hermes/protocol';
import type { AsyncStore, CronJobRow } from '@hermes/store';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { tellGatewayCronChanged } from '../service/cron-signal.js';
import { loadSettings } from '../settings.js';
import { withStateStore } from '../state-store.js';
import { renderJobs } from './cron-format.js';
import { cliScript } from './cron-script.js';

export interface CronAddOptions {
  name?: string;
  deliver?: string;
  toolsets?: string;
  tz?: string;
  /** a file of HERMES_HOME/scripts run before each run */
  script?: string;
  /** the job whose latest answer each run is given */
  contextFrom?: string;
}

/** Runs `fn` on the configured state backend and closes it. */
export async function withStore<T>(
  options: GlobalOptions,
  fn: (store: AsyncStore, timezone: string, home: string) => Promise<T>,
): Promise<T> {
  const settings = loadSettings(options);
  const timezone = settings.config.cron.timezone ?? machineTimezone();
  return withStateStore(settings, (store) => fn(store, timezone, settings.home));
}

/** `withStore` for a change to the table: the running gateway of this HERMES_HOME is told at once (SIGUSR2). */
export async function changeStore<T>(
  options: GlobalOptions,
  fn: (store: AsyncStore, timezone: string, home: string) => Promise<T>,
): Promise<T> {
  let home = '';
  const result = await withStore(options, (store, timezone, h) => {
    home = h;
    return fn(store, timezone, h);
  });
  tellGatewayCronChanged(home);
  return result;
}

export const print = (text: string): void => {
  process.stdout.write(`${text}\n`);
};
/** A note on stderr (a script that waits for consent). */
export const note = (text: string): void => {
  process.stderr.write(`hermes: note: ${text}\n`);
};
const when = (t: number | null) => (t === null ? 'never' : new Date(t).toISOString());

export async function cronAdd(
  options: GlobalOptions,
  schedule: string,
  prompt: string,
  opts: CronAddOptions,
): Promise<void> {
  const deliver = (opts.deliver ?? 'home').trim();
  if (deliver === 'origin') {
    throw new CliExit(
      EXIT.USAGE,
      '--deliver origin is the chat a job was created from (the cronjob tool); from the CLI name home, none, a platform (telegram) or platform:chat_id',
    );
  }
  const job = await changeStore(options, async (store, timezone, home) => {
    const script = opts.script === undefined ? null : cliScript(home, opts.script);
    try {
      const added = await addJob(
        store.cronJobs,
        {
          schedule,
          prompt,
          name: opts.name,
          deliver,
          owner: 'cli',
          toolsets: opts.toolsets?.split(','),
          timezone: opts.tz ?? timezone,
          script: script?.name ?? null,
          contextFrom: opts.contextFrom ?? null,
        },
        Date.now(),
      );
      if (script?.note) note(script.note);
      return added;
    } catch (err) {
      if (err instanceof ScheduleError) throw new CliExit(EXIT.USAGE, err.message);
      throw err;
    }
  });
  if (options.json) return print(JSON.stringify(jobJson(job)));
  const extra = [
    job.script === null ? '' : `; runs ${job.script} first`,
    job.contextFrom === null ? '' : `; reads job ${job.contextFrom}'s latest answer`,
  ].join('');
  print(
    `added job ${job.id} "${job.name}": ${job.schedule} (${job.timezone}), next run ${when(job.nextRunAt)}, delivers to ${job.deliver}${extra}`,
  );
}

export async function cronList(options: GlobalOptions): Promise<void> {
  const jobs = await withStore(options, (store) => store.cronJobs.list());
  if (options.json) return print(JSON.stringify(jobs.map(jobJson)));
  print(jobs.length === 0 ? 'no cron jobs (add one with hermes cron add SCHEDULE PROMPT)' : renderJobs(jobs));
}

export async function cronChange(
  options: GlobalOptions,
  action: 'remove' | 'pause' | 'resume' | 'run',
  id: string,
): Promise<void> {
  const result = await changeStore(options, async (store) => {
    const jobs = store.cronJobs;
    const job = await jobs.get(id);
    if (!job) throw new CliExit(EXIT.ERROR, `no cron job "${id}" (hermes cron list shows them)`);
    return { job: await change(jobs, job, action), removed: action === 'remove' };
  });
  if (options.json) {
    print(JSON.stringify(result.removed ? { removed: id } : jobJson(result.job)));
    return;
  }
  const said = {
    remove: `removed job ${id}`,
    pause: `paused job ${id}`,
    resume: `resumed job ${id}: next run ${when(result.job.nextRunAt)}`,
    run: `job ${id} will run now in the running gateway (or when it next starts)`,
  };
  print(said[action]);
}

async function change(
  jobs: AsyncStore['cronJobs'],
  job: CronJobRow,
  action: 'remove' | 'pause' | 'resume' | 'run',
): Promise<CronJobRow> {
  const refuse = (why: string) => new CliExit(EXIT.ERROR, `job ${job.id} ${why}`);
  if (action === 'remove') await jobs.remove(job.id);
  else if (action === 'pause') {
    if (job.state !== 'active') throw refuse(`is ${job.state}, not active`);
    await jobs.setState(job.id, 'paused');
  } else if (action === 'resume') {
    if (!(await resumeJob(jobs, job, Date.now()))) throw refuse(`is ${job.state}, not paused`);
  } else {
    if (job.state !== 'active') throw refuse(`is ${job.state}: resume it first`);
    await jobs.requestRun(job.id);
  }
  return (await jobs.get(job.id)) ?? job;
}
