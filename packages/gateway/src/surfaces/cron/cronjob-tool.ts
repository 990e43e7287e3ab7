/**
 * The `cronjob` tool (toolset `cron`): the agent schedules from a chat. Actions create, list,
 * remove, pause, resume. A job created in a chat delivers to that chat unless told otherwise, and
 * belongs to it: from a chat, the tool lists and changes only that chat's jobs, and a `user` (not an
 * admin) only the ones their own model made. `deliver` other
 * than origin, none or home is checked like send_message's targets (no strangers). A `script` must
 * be one the operator approved as it is now (the model can name one, never make one run);
 * `context_from` only a job this chat (and this user) may see.
 */

import type { ToolDefinition } from '@hermes/protocol';
import type { DeliveryTarget } from '../../delivery/deliver.js';
import type { CronJobsPort } from './cron-jobs-port.js';
import { addJob, jobJson, resumeJob } from './jobs.js';
import { approveHint, type CronScripts } from './pre-run.js';
import { SCHEDULE_FORMS, ScheduleError } from './schedule.js';
import { readScript, scriptName } from './script-path.js';
import { targetString } from './targets.js';

export interface CronjobToolDeps {
  jobs: CronJobsPort;
  /** the chat a running session answers */
  originOf(sessionId: string): DeliveryTarget | undefined;
  /** checks an explicit target for this session (send_message's rules): the target or an error */
  checkTarget(target: string, sessionId: string): DeliveryTarget | string;
  /** the zone of a job created without one (cron.timezone, else the machine's) */
  timezone(): string;
  now(): number;
  /** the scheduler re-reads its table */
  changed(): void;
  /** tells the chat the job was created from what the model scheduled (with a Cancel button where there are buttons); never throws */
  announce?(origin: DeliveryTarget, job: ReturnType<typeof jobJson>): Promise<void>;
  /** HERMES_HOME/scripts and the operator's consent; absent: no script may be named */
  scripts?: Pick<CronScripts, 'dir' | 'approved'>;
}

/** The script `given` names when the operator approved it as it is now, else why not. */
function approvedScript(scripts: CronjobToolDeps['scripts'], given: string): { name: string } | { error: string } {
  if (scripts === undefined) return { error: 'script: this gateway runs no scripts' };
  const named = scriptName(scripts.dir, given);
  if ('error' in named) return named;
  const read = readScript(scripts.dir, named.name);
  if ('error' in read) return { error: `script ${named.name}: ${read.error}` };
  if (scripts.approved(named.name) !== read.sha256) {
    return {
      error: `script ${named.name} is not approved as it is now: only a script the operator approved may run (they run \`${approveHint(named.name)}\`)`,
    };
  }
  return named;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

export function createCronjobTool(deps: CronjobToolDeps): ToolDefinition {
  return {
    name: 'cronjob',
    toolset: 'cron',
    owner: 'builtin',
    emoji: '⏰',
    schema: {
      name: 'cronjob',
      description:
        'Schedule a prompt to run later or repeatedly as a fresh agent turn whose answer is posted to this chat ' +
        '(reminders, daily summaries, checks). The scheduled run has no one to ask: write the prompt so it stands ' +
        `alone (e.g. "Remind the user to stretch."). An answer of exactly [SILENT] posts nothing. ${SCHEDULE_FORMS}.`,
      parameters: {
        type: 'object',
        properties: {
          action: { type: 'string', enum: ['create', 'list', 'remove', 'pause', 'resume'] },
          schedule: { type: 'string', description: 'create: when (see the accepted forms)' },
          prompt: { type: 'string', description: 'create: what the scheduled run should do or say' },
          name: { type: 'string', description: 'create: a short name (default: from the prompt)' },
          deliver: {
            type: 'string',
            description: 'create: origin (this chat, default), none, a platform (its home channel) or platform:chat_id',
          },
          toolsets: { type: 'array', items: { type: 'string' }, description: "create: the run's toolsets" },
          timezone: { type: 'string', description: 'create: IANA zone for cron expressions and times' },
          script: {
            type: 'string',
            description:
              'create: an approved script of HERMES_HOME/scripts run before each run; its output is given to the run, ' +
              'and a last line {"wakeAgent": false} skips that run',
          },
          context_from: {
            type: 'string',
            description: 'create: a job id of this chat whose latest answer each run is given (chaining)',
          },
          job_id: { type: 'string', description: 'remove, pause, resume: the job' },
        },
        required: ['action'],
      },
    },
    handler: async (args, context) => {
      const origin = deps.originOf(context.sessionId);
      const owner = origin ? targetString(origin) : undefined;
      const action = args.action;
      // a user (not an admin) sees and changes only the jobs their own model made: cron for others is an admin's
      const user = context.user;
      const theirs = (job: { creator: string | null }) => !user || user.tier === 'admin' || job.creator === user.key;
      if (action === 'list') {
        return { jobs: (await deps.jobs.list(owner ? { owner } : {})).filter(theirs).map(jobJson) };
      }
      if (action === 'create') {
        const schedule = str(args.schedule);
        const prompt = str(args.prompt);
        if (!schedule) return { error: `schedule: expected a string; ${SCHEDULE_FORMS}` };
        if (!prompt) return { error: 'prompt: expected a non-empty string' };
        const wanted = str(args.deliver) ?? 'origin';
        let deliver: string;
        if (wanted === 'origin') {
          if (!origin) return { error: 'deliver origin: this turn does not come from a chat; name a platform' };
          deliver = targetString(origin);
        } else if (wanted === 'none' || wanted === 'home') deliver = wanted;
        else {
          const checked = deps.checkTarget(wanted, context.sessionId);
          if (typeof checked === 'string') return { error: `deliver: ${checked}` };
          deliver = wanted.includes(':') ? targetString(checked) : wanted;
        }
        const toolsets = Array.isArray(args.toolsets) ? args.toolsets.filter((t) => typeof t === 'string') : null;
        const wantedScript = str(args.script);
        const script = wantedScript === undefined ? null : approvedScript(deps.scripts, wantedScript);
        if (script !== null && 'error' in script) return { error: script.error };
        const contextFrom = str(args.context_from);
        if (contextFrom !== undefined) {
          // only a job this chat and this user may see: its answers are not another chat's to read
          const upstream = await deps.jobs.get(contextFrom);
          if (!upstream || (owner && upstream.owner !== owner) || !theirs(upstream)) {
            return {
              error: `context_from: no job ${JSON.stringify(contextFrom)}${owner ? ' in this chat' : ''} (list shows them)`,
            };
          }
        }
        try {
          const job = await addJob(
            deps.jobs,
            {
              schedule,
              prompt,
              name: str(args.name),
              deliver,
              owner: owner ?? 'agent',
              // the user whose model asked: the job's runs are theirs (their tier and tools)
              ...(context.user ? { creator: context.user.key } : {}),
              toolsets,
              script: script?.name ?? null,
              contextFrom: contextFrom ?? null,
              timezone: str(args.timezone) ?? deps.timezone(),
            },
            deps.now(),
          );
          deps.changed();
          const created = jobJson(job);
          // said in the chat, not left to the model: a job an injected prompt made does not stay hidden
          if (origin) await deps.announce?.(origin, created);
          return { created };
        } catch (err) {
          if (err instanceof ScheduleError) return { error: err.message };
          throw err;
        }
      }
      if (action !== 'remove' && action !== 'pause' && action !== 'resume') {
        return { error: 'action must be one of create, list, remove, pause, resume' };
      }
      const id = str(args.job_id);
      const job = id ? await deps.jobs.get(id) : undefined;
      if (!id || !job || (owner && job.owner !== owner)) {
        return { error: `job_id: no job ${JSON.stringify(id ?? '')}${owner ? ' in this chat' : ''} (list shows them)` };
      }
      if (!theirs(job)) return { error: `job ${id} was made by another user; only they or an admin may change it` };
      if (action === 'remove') await deps.jobs.remove(id);
      else if (action === 'pause') {
        if (job.state !== 'active') return { error: `job ${id} is ${job.state}, not active` };
        await deps.jobs.setState(id, 'paused');
      } else if (!(await resumeJob(deps.jobs, job, deps.now())))
        return { error: `job ${id} is ${job.state}, not paused` };
      deps.changed();
      return action === 'remove' ? { removed: id } : { job: jobJson((await deps.jobs.get(id)) ?? job) };
    },
  };
}
