/**
 * THE session-key space: every key (and every session id not made by the store) a surface runs its
 * turns under, named once. Chats, the web chat, the API platform, the Responses API, scheduled jobs,
 * gateway hooks and the CLI all build their keys here. The strings are stable: keys already stored
 * in state.db (`sessions.key`) must still resolve after an upgrade.
 *
 * | key                                   | whose                                                        | stored |
 * | ------------------------------------- | ------------------------------------------------------------ | ------ |
 * | `<platform>:<chat>:dm`                | a direct chat (the web chat: `web:<browser id>:dm`)          | yes    |
 * | `<platform>:<chat>:group:<user>`      | one user in a group (`gateway.group_sessions: per_user`)     | yes    |
 * | `<platform>:<chat>:group`             | a whole group (`gateway.group_sessions: shared`)             | yes    |
 * | `<platform>:<chat>:thread:<thread>`   | a thread, shared by its users                                | yes    |
 * | `api:<name>`                          | an API session named by `x-hermes-session` or `user`         | yes    |
 * | `api:response:<response id>`         | a Responses API conversation (its first response, or a fork) | yes    |
 * | `api-stateless-<request id>`          | a stateless API request (lane and turn id; nothing stored)   | no     |
 * | `cron:<job id>`                       | a scheduled job's runs (lane, turn id, approvals)            | no     |
 * | `hook-<hook name>-<run>`              | one `runAgent` of a gateway hook (lane and turn id)          | no     |
 * | `hook:<hook name>`                    | a gateway hook's approval key (shared by its runs)           | no     |
 * | `cli:chat`, `cli:oneshot`             | `hermes chat`, `hermes -z`                                   | yes    |
 */
import type { SessionSource } from './message-event.js';

/** `gateway.group_sessions`: one session per user in a group (default), or one for the whole group. */
export type GroupSessions = 'per_user' | 'shared';

/** The session key of a chat message's source: a DM chat; a group per user (default) or shared; a thread shared. */
export function sessionKeyFor(source: SessionSource, groupSessions: GroupSessions = 'per_user'): string {
  const base = `${source.platform}:${source.chatId}`;
  if (source.chatType === 'dm') return `${base}:dm`;
  if (source.chatType === 'thread' || source.threadId) return `${base}:thread:${source.threadId ?? ''}`;
  return groupSessions === 'shared' ? `${base}:group` : `${base}:group:${source.userId}`;
}

/** The keys of the surfaces that are not chats. */
export const SESSION_KEYS = {
  /** an API session named by the caller (`x-hermes-session` or `user`) */
  api: (name: string): string => `api:${name}`,
  /** the session a Responses API conversation is stored in, named by the response that started it */
  apiResponse: (responseId: string): string => `api:response:${responseId}`,
  /** a stateless API request: its lane and its turn's session id (never stored) */
  apiStateless: (requestId: string): string => `api-stateless-${requestId}`,
  /** a scheduled job: its lane, its runs' session id and their approval key */
  cron: (jobId: string): string => `cron:${jobId}`,
  /** one `runAgent` of a gateway hook: its lane and session id */
  hookRun: (hookName: string, run: string): string => `hook-${hookName}-${run}`,
  /** a gateway hook's approval key (every run of the hook) */
  hookApproval: (hookName: string): string => `hook:${hookName}`,
  /** `hermes chat` */
  cliChat: 'cli:chat',
  /** `hermes -z` */
  cliOneShot: 'cli:oneshot',
} as const;

/** The platform a session key belongs to (`telegram:123:dm` → `telegram`, `api-stateless-…` → `api`). */
export function platformOfKey(key: string): string {
  if (key.startsWith('api-stateless-')) return 'api';
  if (key.startsWith('hook-')) return 'gateway';
  return key.split(':')[0] ?? key;
}
