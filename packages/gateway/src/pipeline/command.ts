/**
 * Stage 5, commands, on every surface whose plan has them: `/name args` runs from the command table
 * (built-in, then plugin commands) and fires the `command:*` gateway event; its answer goes where
 * the job's answer goes (a chat's outbox, the HTTP answer, a cron target, `runAgent`'s text).
 * `/queue` and `/steer` hand their text to the session's lane, which answers it; so does a skill's
 * `/name text`, as a turn on the skill's instructions and the text. A job without a session (its
 * plan says why) answers the session commands with that reason. A `quick_commands` alias stands for
 * its command or text; an admin-only command from a `user`-tier sender is answered with why
 * (access/command-access.ts) and runs nothing.
 */
import type { Logger, TurnJob } from '@hermes/protocol';
import { commandRefusal } from '../access/command-access.js';
import type { GatewayAccess } from '../access/gateway-access.js';
import { quickCommand } from '../access/quick-commands.js';
import {
  type CommandContext,
  type CommandServices,
  isCommand,
  runCommand,
  skillTurnText,
} from '../commands/commands.js';
import type { GatewayEvents } from '../gateway-hooks/gateway-events.js';
import type { BusyMode, SubmitOutcome } from '../sessions/session-lanes.js';
import type { PipelineOutcome } from './outcome.js';

export interface CommandPorts {
  logger: Logger;
  events: Pick<GatewayEvents, 'emit'>;
  /** the lane-independent services: sessions, status text, plugins, home channel */
  services: Omit<CommandServices, 'enqueue'>;
  /** how a skill command's turn meets a running one (display.busy_input_mode, as for messages; default queue) */
  busyMode?: BusyMode;
  /** whether the session key's turn is running here (the console's session list) */
  busy?(sessionKey: string): boolean;
  /** the sender's tier (absent: admin) */
  access?: Pick<GatewayAccess, 'userOf' | 'excludedCommands'>;
  /** quick_commands: `/name` aliases of a command or a text */
  quickCommands?: Readonly<Record<string, string>>;
}

/** How a command's job is answered: the surface's side. */
export interface CommandAnswer {
  /** delivers the command's answer; `outcome`: what the job then is (null: handed on, its lane finishes it) */
  reply(text: string, outcome: PipelineOutcome | null): Promise<void>;
  /** hands `text` to the session's lane as this job's turn */
  handOn(text: string, mode: BusyMode): SubmitOutcome;
  /** finishes the job without an answer (a command that answered nothing) */
  settle(outcome: PipelineOutcome): Promise<unknown>;
}

/** What the command stage reads of a job. */
export type CommandJob = Pick<TurnJob<unknown>, 'surface' | 'who' | 'sessionKey' | 'plan'>;

/** The services as they apply to the job: no session commands without a session, no home channel off a chat. */
function servicesFor(services: Omit<CommandServices, 'enqueue'>, job: CommandJob): Omit<CommandServices, 'enqueue'> {
  const session = job.plan.session;
  const chat = job.surface === 'chat' || job.surface === 'web';
  if (session.apply && chat) return services;
  const why = session.apply ? '' : session.why;
  return {
    ...services,
    ...(session.apply
      ? {}
      : {
          resetSession: async () => `There is no session to reset here (${why}).`,
          title: async () => `There is no session to name here (${why}).`,
          sessions: async () => `There are no sessions here (${why}).`,
          resume: async () => `There is no session to resume here (${why}).`,
          undo: async () => `There is no session to take back from here (${why}).`,
          retry: async () => ({ ok: false as const, reply: `There is no session to retry here (${why}).` }),
          compress: async () => `There is no session to compress here (${why}).`,
          model: (ctx: CommandContext) =>
            ctx.args === '' ? services.model(ctx) : `Cannot switch the model here (${why}).`,
        }),
    ...(chat ? {} : { setHome: () => 'There is no chat here to make the home channel.' }),
  };
}

export async function runCommandStage(
  ports: CommandPorts,
  job: CommandJob,
  answer: CommandAnswer,
  typed: { name: string; args: string },
): Promise<PipelineOutcome> {
  const { who, sessionKey } = job;
  const quick = isCommand(typed.name, ports.services)
    ? null
    : quickCommand(ports.quickCommands ?? {}, typed.name, typed.args);
  if (quick?.kind === 'text') {
    answer.handOn(quick.text, ports.busyMode ?? 'queue');
    return { kind: 'handed_on' };
  }
  const command = quick ?? typed;
  const tier = ports.access ? (await ports.access.userOf(who)).tier : 'admin';
  const ctx: CommandContext = {
    platform: who.platform,
    chatId: who.chatId,
    userId: who.userId,
    sessionKey,
    args: command.args,
    tier,
  };
  ports.events.emit(`command:${command.name}`, {
    platform: who.platform,
    user_id: who.userId,
    command: command.name,
    args: command.args,
  });
  // a command that handed a text to the lane (/queue, /steer, /retry): the lane finishes the job
  let handedOn = false;
  const services: CommandServices = {
    ...servicesFor(ports.services, job),
    ...(ports.quickCommands ? { quickCommands: ports.quickCommands } : {}),
    enqueue: (c, mode) => {
      if (!c.args) return `Usage: /${mode} TEXT`;
      handedOn = true;
      const outcome = answer.handOn(c.args, mode);
      return outcome === 'started' ? '' : mode === 'steer' ? 'Handed to the running answer.' : 'Queued.';
    },
  };
  const refusal = commandRefusal(command.name, tier, {
    excluded: ports.access?.excludedCommands(tier) ?? [],
    adminOnly: ports.services.pluginCommands().get(command.name)?.adminOnly === true,
  });
  if (refusal !== null) {
    await answer.reply(refusal, { kind: 'answered' });
    return { kind: 'answered' };
  }
  let reply: string;
  try {
    const skillText = await skillTurnText(command.name, command.args, services);
    if (skillText !== null) {
      answer.handOn(skillText, ports.busyMode ?? 'queue');
      return { kind: 'handed_on' };
    }
    reply = await runCommand(command.name, ctx, services);
  } catch (err) {
    ports.logger.warn({ err, command: command.name }, `command /${command.name} failed`);
    reply = `/${command.name} failed: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (reply) {
    await answer.reply(reply, handedOn ? null : { kind: 'answered' });
    return handedOn ? { kind: 'handed_on' } : { kind: 'answered' };
  }
  if (handedOn) return { kind: 'handed_on' };
  await answer.settle({ kind: 'answered' });
  return { kind: 'answered' };
}
