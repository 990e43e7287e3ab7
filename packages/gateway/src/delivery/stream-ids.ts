/**
 * The platform message ids a streamed answer was shown in, kept in platform state under the inbox
 * row (`stream:<inboxId>`) from the first send until the answer is delivered: after a crash in
 * mid-stream, the redone turn (or the resend of its outbox rows) edits these messages instead of
 * posting a second answer.
 */
import type { PlatformStatePort } from '../ports.js';

export const streamIdsKey = (inboxId: number): string => `stream:${inboxId}`;

export interface StreamIds {
  read(platform: string, inboxId: number): string[];
  write(platform: string, inboxId: number, ids: readonly string[]): void;
  clear(platform: string, inboxId: number): void;
}

export function streamIds(state: PlatformStatePort): StreamIds {
  return {
    read(platform, inboxId) {
      const raw = state.get(platform, streamIdsKey(inboxId));
      if (raw === undefined || raw === '') return [];
      try {
        const parsed: unknown = JSON.parse(raw);
        return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
      } catch {
        return [];
      }
    },
    write: (platform, inboxId, ids) => state.set(platform, streamIdsKey(inboxId), JSON.stringify(ids)),
    clear(platform, inboxId) {
      if (state.delete) state.delete(platform, streamIdsKey(inboxId));
      else if (state.get(platform, streamIdsKey(inboxId)) !== undefined) state.set(platform, streamIdsKey(inboxId), '');
    },
  };
}
