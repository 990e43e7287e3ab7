/** The gateway's command services: the text of `/status`, `/model` and `/usage`, and what the other built-ins do. */
import { compressText, type FitReport } from '@hermes/agent';
import type { PlatformState } from '@hermes/protocol';
import type { AsyncStore } from '@hermes/store';
import type { CommandServices } from './commands.js';
import { type ModelCommandPorts, modelCommand, sessionModelLabel } from './model-command.js';
import {
  resumeCommand,
  retryText,
  type SessionCommandPorts,
  sessionsCommand,
  titleCommand,
  undoCommand,
} from './session-commands.js';
import { type UsageCommandPorts, usageCommand } from './usage-command.js';

export interface StatusPorts {
  sessions: Pick<AsyncStore['sessions'], 'activeByKey'>;
  transcripts: Pick<AsyncStore['transcripts'], 'count'>;
  model: string;
  /** this chat's model (`/model`); absent: `model` */
  sessionModel?(sessionKey: string): Promise<string>;
  platformStates(): Record<string, PlatformState>;
  busy(sessionKey: string): boolean;
}

export async function statusText(ports: StatusPorts, sessionKey: string): Promise<string> {
  const s = await ports.sessions.activeByKey(sessionKey);
  const count = s ? await ports.transcripts.count(s.id) : 0;
  const model = ports.sessionModel ? await ports.sessionModel(sessionKey) : ports.model;
  const platforms = Object.entries(ports.platformStates())
    .map(([n, st]) => `${n}: ${st.state}`)
    .join(', ');
  return [
    `Session: ${s ? s.id : 'none yet'}${s ? ` (${count} messages)` : ''}`,
    `Running: ${ports.busy(sessionKey) ? 'yes' : 'no'}`,
    `Model: ${model}`,
    `Platforms: ${platforms}`,
  ].join('\n');
}

export function modelText(model: string): string {
  return `Model: ${model} (change it with: hermes config set model.default <id>)`;
}

/** `/compress` on the session of a key: the turn service's compress, its errors as text. */
export async function compressSession(
  ports: Pick<StatusPorts, 'sessions'> & { compress(sessionId: string, platform: string): Promise<FitReport> },
  sessionKey: string,
  platform: string,
): Promise<string> {
  const s = await ports.sessions.activeByKey(sessionKey);
  if (!s) return 'No session yet.';
  try {
    return compressText(await ports.compress(s.id, platform));
  } catch (err) {
    return `Could not compress: ${err instanceof Error ? err.message : String(err)}`;
  }
}

export interface CommandServicePorts extends StatusPorts {
  /** `/model`: the providers and sessions' choices (absent: the fixed model's text) */
  modelCommand?: Omit<ModelCommandPorts, 'model'>;
  /** the turn service's compress (the context engine forced) */
  compress(sessionId: string, platform: string): Promise<FitReport>;
  stop(sessionKey: string): boolean;
  /** a cluster: asks the instance running the session to stop it (false: it runs nowhere) */
  stopElsewhere?(sessionKey: string): Promise<boolean>;
  /** ends the session's active session and starts a fresh one; answers the reply text */
  reset(sessionKey: string, platform: string): Promise<string>;
  pluginSummary(): string;
  pluginCommands: CommandServices['pluginCommands'];
  setHomeChannel(platform: string, chatId: string): void;
  answerApproval: CommandServices['answerApproval'];
  /** the skills invocable as `/name` */
  skills?: CommandServices['skills'];
  link: CommandServices['link'];
  reasoning: CommandServices['reasoning'];
  voice: CommandServices['voice'];
  /** the session commands' ports (session-commands.ts) */
  sessionCommands: SessionCommandPorts;
  /** `/usage` (usage-command.ts) */
  usage: UsageCommandPorts;
}

/** The services the command table runs on (all but `enqueue`, which the command stage adds). */
export function commandServices(ports: CommandServicePorts): Omit<CommandServices, 'enqueue'> {
  const models = ports.modelCommand ? { ...ports.modelCommand, model: ports.model } : null;
  const statusPorts: StatusPorts = models ? { ...ports, sessionModel: (k) => sessionModelLabel(models, k) } : ports;
  return {
    resetSession: async (key, platform) => {
      if (!ports.stop(key)) await ports.stopElsewhere?.(key);
      return ports.reset(key, platform);
    },
    stopRun: async (key) => ports.stop(key) || ((await ports.stopElsewhere?.(key)) ?? false),
    status: (key) => statusText(statusPorts, key),
    model: (ctx) => (models ? modelCommand(models, ctx) : modelText(ports.model)),
    usage: (c) => usageCommand(ports.usage, c),
    compress: (key, platform) => compressSession(ports, key, platform),
    plugins: () => ports.pluginSummary(),
    setHome: (platform, chatId) => {
      ports.setHomeChannel(platform, chatId);
      return `This chat is now the ${platform} home channel.`;
    },
    pluginCommands: ports.pluginCommands,
    answerApproval: ports.answerApproval,
    link: ports.link,
    reasoning: ports.reasoning,
    voice: ports.voice,
    title: (c) => titleCommand(ports.sessionCommands, c),
    sessions: (c) => sessionsCommand(ports.sessionCommands, c),
    resume: (c) => resumeCommand(ports.sessionCommands, c),
    undo: (c) => undoCommand(ports.sessionCommands, c),
    retry: (c) => retryText(ports.sessionCommands, c),
    ...(ports.skills ? { skills: ports.skills } : {}),
  };
}
