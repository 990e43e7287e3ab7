/**
 * Untrusted gateway payloads → the typed shapes the adapter reads. Every field used downstream is
 * checked here; a payload that does not fit is reported with what was wrong, never thrown on.
 */

export interface InboundUser {
  id: string;
  username: string;
  globalName?: string;
  bot: boolean;
}

export interface InboundAttachment {
  id: string;
  filename: string;
  url: string;
  size?: number;
  contentType?: string;
}

/** A MESSAGE_CREATE, as far as the adapter reads it. */
export interface InboundMessage {
  id: string;
  channelId: string;
  guildId?: string;
  /** the gateway's `channel_type`, when sent */
  channelType?: number;
  /** Discord's message type: 0 default, 19 reply, others are system messages */
  type: number;
  author: InboundUser;
  content: string;
  mentions: InboundUser[];
  mentionRoleIds: string[];
  webhookId?: string;
  /** the author of the message this one replies to, when Discord sent it */
  referencedAuthorId?: string;
  attachments: InboundAttachment[];
}

/** An INTERACTION_CREATE for a chat-input (slash) command. */
export interface InboundCommand {
  id: string;
  token: string;
  applicationId: string;
  name: string;
  /** option values in order, subcommand names included: the command's arguments as text */
  args: string[];
  channelId: string;
  channelType?: number;
  guildId?: string;
  user: InboundUser;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string; id?: string };

/** Interactions the adapter does not handle (components, autocomplete, context menus). */
export type ParsedInteraction = Parsed<InboundCommand> | { ok: 'ignored'; reason: string; id?: string };

type Json = Record<string, unknown>;

const SNOWFLAKE = /^\d{1,20}$/;
const INTERACTION_APPLICATION_COMMAND = 2;
const COMMAND_CHAT_INPUT = 1;
const OPTION_SUB_COMMAND = 1;
const OPTION_SUB_COMMAND_GROUP = 2;

class PayloadProblem extends Error {}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function snowflake(value: unknown, field: string): string {
  if (typeof value !== 'string' || !SNOWFLAKE.test(value)) throw new PayloadProblem(`${field} is not a snowflake`);
  return value;
}

function optionalSnowflake(value: unknown, field: string): string | undefined {
  return value === undefined || value === null ? undefined : snowflake(value, field);
}

function optionalNumber(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new PayloadProblem(`${field} is not a number`);
  return value;
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new PayloadProblem(`${field} is not a string`);
  return value;
}

function arrayOf(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new PayloadProblem(`${field} is not an array`);
  return value;
}

function user(value: unknown, field: string): InboundUser {
  if (!isRecord(value)) throw new PayloadProblem(`${field} is missing`);
  const globalName = optionalString(value.global_name, `${field}.global_name`);
  return {
    id: snowflake(value.id, `${field}.id`),
    username: optionalString(value.username, `${field}.username`) ?? '',
    ...(globalName === undefined ? {} : { globalName }),
    bot: value.bot === true,
  };
}

function attachment(value: unknown, field: string): InboundAttachment {
  if (!isRecord(value)) throw new PayloadProblem(`${field} is not an object`);
  const url = optionalString(value.url, `${field}.url`);
  if (url === undefined) throw new PayloadProblem(`${field}.url is missing`);
  const size = optionalNumber(value.size, `${field}.size`);
  const contentType = optionalString(value.content_type, `${field}.content_type`);
  return {
    id: snowflake(value.id, `${field}.id`),
    filename: optionalString(value.filename, `${field}.filename`) ?? 'file',
    url,
    ...(size === undefined ? {} : { size }),
    ...(contentType === undefined ? {} : { contentType }),
  };
}

function idOf(value: unknown): string | undefined {
  return isRecord(value) && typeof value.id === 'string' ? value.id : undefined;
}

function failed(error: unknown, data: unknown): { ok: false; problem: string; id?: string } {
  if (!(error instanceof PayloadProblem)) throw error;
  const id = idOf(data);
  return { ok: false, problem: error.message, ...(id === undefined ? {} : { id }) };
}

/** Reads a MESSAGE_CREATE payload. */
export function parseMessageCreate(data: unknown): Parsed<InboundMessage> {
  try {
    if (!isRecord(data)) throw new PayloadProblem('payload is not an object');
    const content = data.content;
    if (typeof content !== 'string') throw new PayloadProblem('content is not a string');
    const type = optionalNumber(data.type, 'type');
    if (type === undefined) throw new PayloadProblem('type is missing');
    const referenced = data.referenced_message;
    const guildId = optionalSnowflake(data.guild_id, 'guild_id');
    const channelType = optionalNumber(data.channel_type, 'channel_type');
    const webhookId = optionalSnowflake(data.webhook_id, 'webhook_id');
    const referencedAuthorId = isRecord(referenced)
      ? user(referenced.author, 'referenced_message.author').id
      : undefined;
    const value: InboundMessage = {
      id: snowflake(data.id, 'id'),
      channelId: snowflake(data.channel_id, 'channel_id'),
      ...(guildId === undefined ? {} : { guildId }),
      ...(channelType === undefined ? {} : { channelType }),
      type,
      author: user(data.author, 'author'),
      content,
      mentions: arrayOf(data.mentions, 'mentions').map((entry, i) => user(entry, `mentions[${i}]`)),
      mentionRoleIds: arrayOf(data.mention_roles, 'mention_roles').map((entry, i) =>
        snowflake(entry, `mention_roles[${i}]`),
      ),
      ...(webhookId === undefined ? {} : { webhookId }),
      ...(referencedAuthorId === undefined ? {} : { referencedAuthorId }),
      attachments: arrayOf(data.attachments, 'attachments').map((entry, i) => attachment(entry, `attachments[${i}]`)),
    };
    return { ok: true, value };
  } catch (error) {
    return failed(error, data);
  }
}

function optionArgs(options: unknown, field: string): string[] {
  const args: string[] = [];
  for (const [i, option] of arrayOf(options, field).entries()) {
    if (!isRecord(option)) throw new PayloadProblem(`${field}[${i}] is not an object`);
    const name = optionalString(option.name, `${field}[${i}].name`) ?? '';
    if (option.type === OPTION_SUB_COMMAND || option.type === OPTION_SUB_COMMAND_GROUP) {
      args.push(name, ...optionArgs(option.options, `${field}[${i}].options`));
      continue;
    }
    const value = option.value;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      const text = String(value).trim();
      if (text !== '') args.push(text);
    }
  }
  return args;
}

/** Reads an INTERACTION_CREATE payload; anything but a chat-input command is `ignored`. */
export function parseInteractionCreate(data: unknown): ParsedInteraction {
  try {
    if (!isRecord(data)) throw new PayloadProblem('payload is not an object');
    const id = snowflake(data.id, 'id');
    const command = data.data;
    if (data.type !== INTERACTION_APPLICATION_COMMAND)
      return { ok: 'ignored', reason: `type ${String(data.type)}`, id };
    if (!isRecord(command)) throw new PayloadProblem('data is missing');
    if (command.type !== undefined && command.type !== COMMAND_CHAT_INPUT) {
      return { ok: 'ignored', reason: `command type ${String(command.type)}`, id };
    }
    const token = optionalString(data.token, 'token');
    if (token === undefined || token === '') throw new PayloadProblem('token is missing');
    const name = optionalString(command.name, 'data.name');
    if (name === undefined || name === '') throw new PayloadProblem('data.name is missing');
    const channel = isRecord(data.channel) ? data.channel : undefined;
    const channelId = snowflake(data.channel_id ?? channel?.id, 'channel_id');
    const channelType = optionalNumber(channel?.type, 'channel.type');
    const guildId = optionalSnowflake(data.guild_id, 'guild_id');
    const member = isRecord(data.member) ? data.member : undefined;
    const value: InboundCommand = {
      id,
      token,
      applicationId: snowflake(data.application_id, 'application_id'),
      name,
      args: optionArgs(command.options, 'data.options'),
      channelId,
      ...(channelType === undefined ? {} : { channelType }),
      ...(guildId === undefined ? {} : { guildId }),
      user: member === undefined ? user(data.user, 'user') : user(member.user, 'member.user'),
    };
    return { ok: true, value };
  } catch (error) {
    return failed(error, data);
  }
}
