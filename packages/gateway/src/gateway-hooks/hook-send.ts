/**
 * Sends text for a gateway hook: `telegram` (its home channel), `home` (the first connected
 * platform with a home channel) or `telegram:CHAT_ID[:THREAD_ID]`.
 */
import type { HookSendResult } from '@hermes/protocol';
import type { DeliveryResult, DeliveryTarget } from '../delivery/deliver.js';
import type { Env } from '../pipeline/allowlist.js';

export async function hookSend(
  ports: {
    env: Env;
    connected: readonly string[];
    send(target: DeliveryTarget, text: string): Promise<DeliveryResult>;
  },
  target: string,
  text: string,
): Promise<HookSendResult> {
  const homeOf = (platform: string) => ports.env[`${platform.toUpperCase()}_HOME_CHANNEL`];
  let platform: string;
  let chatId: string | undefined;
  let threadId: string | undefined;
  if (target === 'home') {
    platform = ports.connected.find((p) => homeOf(p)) ?? '';
    if (!platform) return { ok: false, error: 'no connected platform has a home channel (send /sethome in a chat)' };
    chatId = homeOf(platform);
  } else {
    [platform = '', chatId, threadId] = target.split(':');
    chatId ||= homeOf(platform);
  }
  if (!ports.connected.includes(platform)) return { ok: false, error: `platform "${platform}" is not connected` };
  if (!chatId) return { ok: false, error: `${platform} has no home channel (send /sethome in a chat)` };
  const result = await ports.send({ platform, chatId, ...(threadId ? { threadId } : {}) }, text);
  return result.failed === 0 ? { ok: true } : { ok: false, error: result.errors.join('; ') };
}
