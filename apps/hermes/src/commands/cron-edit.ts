/**
 * `hermes cron edit ID`: changes a job's name, prompt, target, toolsets, pre-run script or upstream
 * job in place; its schedule, state and history stay. The running gateway sees the change at its
 * next check (within 2 s).
 */
import { editJob, jobJson, ScheduleError } from '@hermes/gateway';
import { EXIT } from '@hermes/protocol';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { changeStore, note, print } from './cron.js';
import { cliScript } from './cron-script.js';

export interface CronEditOptions {
  name?: string;
  prompt?: string;
  deliver?: string;
  toolsets?: string;
  /** a file name; false: `--no-script` */
  script?: string | false;
  /** a job id; false: `--no-context-from` */
  contextFrom?: string | false;
}

export async function cronEdit(options: GlobalOptions, id: string, opts: CronEditOptions): Promise<void> {
  if (opts.deliver?.trim() === 'origin') {
    throw new CliExit(
      EXIT.USAGE,
      '--deliver origin is the chat a job was created from; name home, none, a platform or platform:chat_id',
    );
  }
  const job = await changeStore(options, async (store, _timezone, home) => {
    const found = await store.cronJobs.get(id);
    if (!found) throw new CliExit(EXIT.ERROR, `no cron job "${id}" (hermes cron list shows them)`);
    const script = typeof opts.script === 'string' ? cliScript(home, opts.script) : null;
    try {
      const edited = await editJob(store.cronJobs, found, {
        name: opts.name,
        prompt: opts.prompt,
        deliver: opts.deliver?.trim(),
        toolsets: opts.toolsets?.split(','),
        script: opts.script === false ? null : script?.name,
        contextFrom: opts.contextFrom === false ? null : opts.contextFrom,
      });
      if (script?.note) note(script.note);
      return edited;
    } catch (err) {
      if (err instanceof ScheduleError) throw new CliExit(EXIT.USAGE, err.message);
      throw err;
    }
  });
  if (options.json) return print(JSON.stringify(jobJson(job)));
  const parts = [`edited job ${job.id} "${job.name}"`];
  if (job.script !== null) parts.push(`runs ${job.script} first`);
  if (job.contextFrom !== null) parts.push(`reads job ${job.contextFrom}'s latest answer`);
  print(parts.join('; '));
}
