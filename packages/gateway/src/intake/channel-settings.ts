/**
 * A channel's own settings, keyed `platform:chat_id` (or `platform:chat_id:thread_id`, which wins
 * over its chat's): gateway.channel_prompts (instructions after the system prompt),
 * gateway.channel_skills (skills whose instructions every turn there carries) and
 * gateway.channel_toolsets (the tools its turns are narrowed to).
 */
import type { SkillCommands } from '@hermes/agent';
import type { Logger, MessageEvent } from '@hermes/protocol';

type ByChannel<T> = Readonly<Record<string, T>>;

/** The channel's entry: its thread's, else its chat's. */
export function channelPrompt<T = string>(entries: ByChannel<T> | undefined, event: MessageEvent): T | undefined {
  if (!entries) return undefined;
  const { platform, chatId, threadId } = event.source;
  return (threadId ? entries[`${platform}:${chatId}:${threadId}`] : undefined) ?? entries[`${platform}:${chatId}`];
}

export interface ChannelSettingsSource {
  channelPrompts?: ByChannel<string>;
  channelSkills?: ByChannel<readonly string[]>;
  channelToolsets?: ByChannel<readonly string[]>;
}

/** What a message's turn takes from its channel. */
export interface ChannelTurnSettings {
  instructions?: string;
  toolsets?: readonly string[];
}

/** A channel's settings: at once, or (skills to preload) a promise of them. */
export type ChannelSettings = (event: MessageEvent) => ChannelTurnSettings | Promise<ChannelTurnSettings>;

const NONE: ChannelTurnSettings = Object.freeze({});

/** The channel settings of config.yaml; `skills` reads the skills (a reload swaps them behind it). */
export function channelSettings(
  source: ChannelSettingsSource,
  skills: SkillCommands | undefined,
  logger: Pick<Logger, 'warn'>,
): ChannelSettings {
  const settings = (prompt: string | undefined, preloaded: string, toolsets: readonly string[] | undefined) => {
    const instructions = [prompt, preloaded].filter((part) => part !== undefined && part !== '').join('\n\n');
    return instructions || toolsets
      ? { ...(instructions ? { instructions } : {}), ...(toolsets ? { toolsets } : {}) }
      : NONE;
  };
  const preload = async (
    event: MessageEvent,
    loader: SkillCommands,
    names: readonly string[],
    prompt: string | undefined,
    toolsets: readonly string[] | undefined,
  ) => {
    const { text, missing } = await loader.preload(names);
    if (missing.length > 0) {
      const key = `${event.source.platform}:${event.source.chatId}`;
      logger.warn({ channel: key, missing }, `gateway.channel_skills: no skill named ${missing.join(', ')}`);
    }
    return settings(prompt, text, toolsets);
  };
  return (event) => {
    const prompt = channelPrompt(source.channelPrompts, event);
    const names = channelPrompt(source.channelSkills, event) ?? [];
    const toolsets = channelPrompt(source.channelToolsets, event);
    // only skills to preload are awaited: a channel without them (every channel by default) answers at once
    if (names.length > 0 && skills) return preload(event, skills, names, prompt, toolsets);
    return settings(prompt, '', toolsets);
  };
}
