/** The gateway's command list → Discord global slash commands, registered with one bulk overwrite. */
import { createHash } from 'node:crypto';
import type { Logger, PlatformContext } from '@hermes/protocol';
import { type REST, Routes } from 'discord.js';
import { describeError } from './error-text.js';

/** Discord's limits for chat-input commands. */
export const COMMAND_NAME_MAX = 32;
export const COMMAND_DESCRIPTION_MAX = 100;
export const GLOBAL_COMMANDS_MAX = 100;
/** the state key holding the hash of the last list registered, so an unchanged list is not sent again */
export const REGISTERED_STATE_KEY = 'slash_commands_sha256';
/** the one optional string option of commands that take text */
export const TEXT_OPTION = 'text';

const VALID_NAME = /^[-_\p{Ll}\p{Lo}\p{N}]{1,32}$/u;
const CHAT_INPUT = 1;
const STRING_OPTION = 3;
/** where the commands may be used: guild channels (0) and DMs with the bot (1) */
const CONTEXTS = [0, 1];
/** installed to guilds (0) */
const INTEGRATION_TYPES = [0];

export interface SlashCommandOption {
  type: number;
  name: string;
  description: string;
  required: boolean;
}

export interface SlashCommand {
  type: number;
  name: string;
  description: string;
  options?: SlashCommandOption[];
  contexts: number[];
  integration_types: number[];
}

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * One gateway command → its slash command, or null when the name is not a valid Discord name once
 * lowercased. A description that starts with the command's usage (`/queue TEXT: ...`) marks a
 * command that takes text: it gets one optional string option, and the usage leaves the description.
 */
export function toSlashCommand(command: { name: string; description: string }): SlashCommand | null {
  const name = command.name.toLowerCase();
  if (!VALID_NAME.test(name)) return null;
  const usage = new RegExp(`^/${name.replace(/[-]/g, '\\-')}\\s+([^:]+?)\\s*(?::\\s*|$)`, 'iu').exec(
    command.description.trim(),
  );
  const described = (usage === null ? command.description : command.description.trim().slice(usage[0].length)).trim();
  const description = truncate(described || `/${name}`, COMMAND_DESCRIPTION_MAX);
  const option: SlashCommandOption | undefined =
    usage?.[1] === undefined
      ? undefined
      : {
          type: STRING_OPTION,
          name: TEXT_OPTION,
          description: truncate(usage[1], COMMAND_DESCRIPTION_MAX),
          required: false,
        };
  return {
    type: CHAT_INPUT,
    name,
    description,
    ...(option === undefined ? {} : { options: [option] }),
    contexts: CONTEXTS,
    integration_types: INTEGRATION_TYPES,
  };
}

/** The list to register: valid, unique names only (first one wins), at most Discord's 100; `skipped` names the rest. */
export function slashCommandsFrom(commands: readonly { name: string; description: string }[]): {
  commands: SlashCommand[];
  skipped: string[];
} {
  const out: SlashCommand[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (const command of commands) {
    const slash = toSlashCommand(command);
    if (slash === null || seen.has(slash.name) || out.length >= GLOBAL_COMMANDS_MAX) {
      skipped.push(command.name);
      continue;
    }
    seen.add(slash.name);
    out.push(slash);
  }
  return { commands: out, skipped };
}

export interface RegisterOptions {
  rest: REST;
  applicationId: string;
  commands: readonly { name: string; description: string }[];
  state: PlatformContext['state'];
  logger: Logger;
}

/**
 * Bulk-overwrites the application's global commands (PUT /applications/:id/commands) unless the
 * same list was registered before; never throws: a failure is logged and the platform carries on.
 */
export async function registerSlashCommands(options: RegisterOptions): Promise<'registered' | 'unchanged' | 'failed'> {
  const { commands, skipped } = slashCommandsFrom(options.commands);
  if (skipped.length > 0) {
    options.logger.warn({ skipped }, 'discord: commands not registered as slash commands (invalid or duplicate names)');
  }
  const hash = createHash('sha256')
    .update(JSON.stringify([options.applicationId, commands]))
    .digest('hex');
  if (options.state.get(REGISTERED_STATE_KEY) === hash) return 'unchanged';
  try {
    await options.rest.put(Routes.applicationCommands(options.applicationId), { body: commands });
    options.state.set(REGISTERED_STATE_KEY, hash);
    options.logger.info({ count: commands.length }, 'discord: slash commands registered');
    return 'registered';
  } catch (error) {
    options.logger.warn({ error: describeError(error) }, 'discord: slash command registration failed; continuing');
    return 'failed';
  }
}
