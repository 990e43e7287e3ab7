/** Which session a message belongs to: a DM chat; a group per user (default) or shared; a thread shared. */
import type { SessionSource } from '@hermes/protocol';

export type GroupSessions = 'per_user' | 'shared';

/** The session key of a source. */
export function sessionKeyFor(source: SessionSource, groupSessions: GroupSessions = 'per_user'): string {
  const base = `${source.platform}:${source.chatId}`;
  if (source.chatType === 'dm') return `${base}:dm`;
  if (source.chatType === 'thread' || source.threadId) return `${base}:thread:${source.threadId ?? ''}`;
  return groupSessions === 'shared' ? `${base}:group` : `${base}:group:${source.userId}`;
}
