/**
 * Scheduled jobs in a running gateway: the scheduler, each fire a turn job of surface `cron`
 * through the gateway's stages (the dispatch hook, commands, lane `cron:<job id>` and a run slot,
 * events, metrics; the job's toolsets, never `cronjob` itself, no memory, no approvals: a dangerous
 * command is denied), delivery through the gateway's outbox, and the `cronjob` tool.
 */

import {
  type Logger,
  type PlatformAdapter,
  planFor,
  SESSION_KEYS,
  selectsTool,
  type ToolDefinition,
} from '@hermes/protocol';
import type { CronJobRow } from '@hermes/store';
import { type ActionButtons, postWithButtons } from '../../delivery/action-buttons.js';
import type { DeliveryTarget } from '../../delivery/deliver.js';
import { type MessagingGatewayPort, resolveTarget } from '../../delivery/send-message-tool.js';
import type { GatewayEvents } from '../../gateway-hooks/gateway-events.js';
import { awaitedSink } from '../../intake/direct-intake.js';
import type { DirectOutcome, DirectTurnJob } from '../../pipeline/input.js';
import type { CronClock } from './clock.js';
import { announcementText, announcementWithButton, CRON_CANCEL_ACTION, cronCancelHandler } from './cron-announce.js';
import type { CronJobsPort } from './cron-jobs-port.js';
import { createCronjobTool } from './cronjob-tool.js';
import { type CronTurnResult, type FirePorts, recoverFires, runFire } from './fire.js';
import type { CronScripts } from './pre-run.js';
import { prepareRun } from './run-context.js';
import { CronScheduler, type CronSettings } from './scheduler.js';
import { resolveDeliver } from './targets.js';

/** What the cron service asks of the gateway; `Gateway` satisfies it. */
export interface CronGatewayPort extends MessagingGatewayPort {
  readonly adapters: ReadonlyMap<string, PlatformAdapter>;
  readonly events: GatewayEvents;
  /** where the announcement's Cancel button is handled */
  readonly actions?: Pick<ActionButtons, 'register'>;
  readonly turns: { availableTools(): Promise<ToolDefinition[]> };
  submitTurn(submitted: Omit<DirectTurnJob, 'acceptedAt'>): void;
}

export interface CronServiceDeps {
  gateway: CronGatewayPort;
  jobs: CronJobsPort;
  env: Readonly<Record<string, string | undefined>>;
  settings: CronSettings;
  clock: CronClock;
  logger: Logger;
  recheckMs?: number;
  /** HERMES_HOME/scripts and the operator's consent to them; absent: a job's pre-run script never runs */
  scripts?: CronScripts;
}

export interface CronService {
  readonly scheduler: CronScheduler;
  /** the `cronjob` tool, bound to this gateway */
  readonly tool: ToolDefinition;
  start(): Promise<void>;
  stop(drainMs: number): Promise<void>;
}

/** Tools a job's turn never gets: it cannot schedule more jobs. */
export const CRON_EXCLUDED_TOOLS: readonly string[] = ['cronjob'];

/** What the model is told on a scheduled run (after the system prompt). */
export function cronInstructions(job: CronJobRow): string {
  const where = job.deliver === 'none' ? 'nowhere (it is only recorded)' : `to ${job.deliver}`;
  return (
    `This is a scheduled run of job "${job.name}" (${job.id}, schedule "${job.schedule}"). Nobody is present: ` +
    'there is no one to ask questions, and dangerous terminal commands are denied. Your final answer is posted ' +
    `${where}. When there is nothing worth reporting, answer exactly [SILENT] and nothing is posted.`
  );
}

/** What a fire's job came to, as the fire records it (a run that hit agent.max_iterations has no answer: failed). */
function cronTurnResult(outcome: DirectOutcome): CronTurnResult {
  switch (outcome.kind) {
    case 'skipped':
      return { status: 'skipped', text: null };
    case 'unavailable':
      return { status: 'interrupted', text: null };
    case 'command':
      return { status: 'completed', text: outcome.text };
    case 'limited':
      return { status: 'failed', text: outcome.text };
    case 'error':
      throw outcome.error;
    case 'ran': {
      const { result } = outcome;
      return {
        status: result.status === 'max_iterations' ? 'failed' : result.status,
        text: outcome.text,
        ...(result.error && outcome.failure ? { error: outcome.failure } : {}),
      };
    }
  }
}

export function createCronService(deps: CronServiceDeps): CronService {
  const { gateway, jobs, env, logger } = deps;
  const targets = { env, connected: () => [...gateway.adapters.keys()] };
  const resolve = (deliver: string) => resolveDeliver(targets, deliver);
  const send = (target: DeliveryTarget, text: string) => gateway.sendTo(target, text);

  async function runTurn(job: CronJobRow, signal: AbortSignal): Promise<CronTurnResult> {
    const log = logger.child({ cronJob: job.id });
    // the pre-run script's wake gate first: `{"wakeAgent": false}` skips the run (no turn, nothing sent)
    const prepared = await prepareRun({ jobs, scripts: deps.scripts, logger: log }, job);
    if ('skip' in prepared) return { status: 'skipped', text: null, reason: prepared.skip };
    const all = await gateway.turns.availableTools();
    const toolsets = job.toolsets;
    const tools = all.filter(
      (t) => !CRON_EXCLUDED_TOOLS.includes(t.name) && (toolsets === null || selectsTool(toolsets, t)),
    );
    const { sink, outcome } = awaitedSink('cron', {
      signal,
      // nobody can answer an approval on a scheduled run: every dangerous command is denied (the
      // approval hooks still see the request and the denial)
      approval: {
        surface: 'gateway',
        key: SESSION_KEYS.cron(job.id),
        ask: async (request) => {
          log.warn(
            { command: request.command },
            `cron job ${job.id}: dangerous command denied (nobody can approve a scheduled run): ${request.description}`,
          );
          return 'deny';
        },
      },
      tools,
      // self-contained: no memory block, prefetch or sync (a schedule's runs would otherwise write
      // their reports into the user's memory, and see the block of its first run until a restart)
      memory: false,
      logger: log,
    });
    gateway.submitTurn({
      surface: 'cron',
      who: {
        platform: 'cron',
        userId: job.owner,
        chatId: job.id,
        // a job the model made runs as its creator: their tier, tools and memory owner
        ...(job.creator ? { onBehalfOf: job.creator } : {}),
      },
      sessionKey: SESSION_KEYS.cron(job.id),
      input: { text: prepared.text, instructions: cronInstructions(job) },
      sink,
      plan: planFor('cron'),
    });
    return cronTurnResult(await outcome);
  }

  const fire: FirePorts = {
    jobs,
    runTurn,
    send,
    resolve,
    events: gateway.events,
    logger,
    maxFailures: deps.settings.maxFailures,
  };

  const scheduler = new CronScheduler({
    jobs,
    clock: deps.clock,
    catchUp: deps.settings.catchUp,
    logger,
    fire: (job, claim, signal) => runFire(fire, job, claim, signal),
    recover: () => recoverFires({ jobs, send, resolve }),
    ...(deps.recheckMs !== undefined ? { recheckMs: deps.recheckMs } : {}),
  });

  const tool = createCronjobTool({
    jobs,
    originOf: (sessionId) => gateway.originOf(sessionId),
    checkTarget: (target, sessionId) => resolveTarget({ gateway, env }, target, sessionId),
    timezone: () => deps.settings.timezone,
    now: () => deps.clock.now(),
    changed: () => scheduler.poke(),
    ...(deps.scripts ? { scripts: deps.scripts } : {}),
    announce: async (origin, job) => {
      try {
        const withButton = announcementWithButton(job);
        const ports = { adapters: gateway.adapters, sendText: send };
        await postWithButtons(ports, origin, { ...withButton, fallback: announcementText(job) });
      } catch (err) {
        logger.warn({ err }, 'cron: the announcement of a new job could not be delivered');
      }
    },
  });

  gateway.actions?.register(CRON_CANCEL_ACTION, cronCancelHandler({ jobs, changed: () => scheduler.poke() }));

  return {
    scheduler,
    tool,
    start: () => scheduler.start(),
    stop: (drainMs) => scheduler.stop(drainMs),
  };
}
