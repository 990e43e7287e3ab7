/**
 * A job's deliver target as stored: `none`, `home` (the first connected platform with a home
 * channel), `<platform>` (its home channel, `<PLATFORM>_HOME_CHANNEL`, set by /sethome) or
 * `<platform>:<chat_id>[:<thread_id>]`. Resolved at each fire, so a later /sethome is followed.
 */
import type { DeliveryTarget } from '../../delivery/deliver.js';

export interface TargetPorts {
  env: Readonly<Record<string, string | undefined>>;
  connected: () => readonly string[];
}

/** The delivery target, null for `none`, or an error message naming what is missing. */
export function resolveDeliver(ports: TargetPorts, deliver: string): DeliveryTarget | null | string {
  if (deliver === 'none') return null;
  const connected = ports.connected();
  const homeOf = (platform: string) => ports.env[`${platform.toUpperCase()}_HOME_CHANNEL`];
  if (deliver === 'home') {
    const platform = connected.find((p) => homeOf(p));
    const chatId = platform ? homeOf(platform) : undefined;
    if (!platform || !chatId) return 'no connected platform has a home channel (send /sethome in a chat)';
    return { platform, chatId };
  }
  const [platform = '', chatId, threadId] = deliver.split(':');
  if (!connected.includes(platform)) {
    return `platform "${platform}" is not connected (connected: ${connected.join(', ') || 'none'})`;
  }
  const chat = chatId || homeOf(platform);
  if (!chat) return `${platform} has no home channel (send /sethome in a chat there)`;
  return { platform, chatId: chat, ...(threadId ? { threadId } : {}) };
}

/** The stored form of a target (`telegram:42`, `slack:C1:1700.1`). */
export const targetString = (t: { platform: string; chatId: string; threadId?: string | undefined }): string =>
  `${t.platform}:${t.chatId}${t.threadId ? `:${t.threadId}` : ''}`;

/** Checks a deliver value's shape (not whether it resolves now): returns an error message or null. */
export function deliverShapeError(deliver: string): string | null {
  if (deliver === 'none' || deliver === 'home') return null;
  if (/^[a-z][a-z0-9_-]*(:[^:\s]+(:[^:\s]+)?)?$/.test(deliver)) return null;
  return `deliver "${deliver}": expected none, home, a platform (telegram, discord, slack: its home channel) or platform:chat_id[:thread_id]`;
}
