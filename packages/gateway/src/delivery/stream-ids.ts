/**
 * The platform message ids a streamed answer was shown in, kept in platform state under the inbox
 * row (`stream:<inboxId>`) from the first send until the answer is delivered: after a crash in
 * mid-stream, the redone turn (or the resend of its outbox rows) edits these messages instead of
 * posting a second answer.
 */
import type { StoreWrite } from '@hermes/store';

export const streamIdsKey = (inboxId: number): string => `stream:${inboxId}`;

export interface StreamIds {
  read(platform: string, inboxId: number): Promise<string[]>;
  /** the write that remembers the ids (committed by the caller) */
  write(platform: string, inboxId: number, ids: readonly string[]): StoreWrite;
  /** the write that forgets them (committed with the answer's last mark) */
  clear(platform: string, inboxId: number): StoreWrite;
}

export function streamIds(readState: (platform: string, key: string) => Promise<string | undefined>): StreamIds {
  return {
    async read(platform, inboxId) {
      const raw = await readState(platform, streamIdsKey(inboxId));
      if (raw === undefined || raw === '') return [];
      try {
        const parsed: unknown = JSON.parse(raw);
        return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
      } catch {
        return [];
      }
    },
    write: (platform, inboxId, ids) => ({
      kind: 'platformState.set',
      platform,
      key: streamIdsKey(inboxId),
      value: JSON.stringify(ids),
    }),
    clear: (platform, inboxId) => ({ kind: 'platformState.delete', platform, key: streamIdsKey(inboxId) }),
  };
}
