/**
 * The media cache per user: a chat message's downloaded files move from the adapters' cache
 * folder (HERMES_HOME/cache/media) into their sender's own folder, cache/media/<owner, made safe>/,
 * before the message is stored, so the stored event names the file where it stays. `MEDIA:`
 * lines and `send_message` may send from the asking user's folder only (media-source.ts).
 */
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Logger, MessageEvent } from '@hermes/protocol';
import { safeIdentityName } from '@hermes/protocol';
import { identityOfWho } from './identity.js';

/** The cache folder of an owner identity. */
export function userMediaDir(cacheDir: string, owner: string): string {
  return path.join(cacheDir, safeIdentityName(owner));
}

/** Whether a message carries downloaded files (intoUserCache moves them; any other message it returns as it is). */
export const holdsFiles = (event: MessageEvent): boolean => event.attachments?.some((a) => a.path !== null) === true;

/** A message with files: the files moved into their sender's (owner's) folder; any other message as it is. */
export async function intoUserCache(
  event: MessageEvent,
  ports: { ownerOf(identity: string): Promise<string>; cacheDir: string; logger: Logger },
): Promise<MessageEvent> {
  if (!holdsFiles(event)) return event;
  const owner = await ports.ownerOf(identityOfWho(event.platform, event.source.userId));
  return moveToUserCache(event, ports.cacheDir, owner, ports.logger);
}

/** The event with its files that lie directly in `cacheDir` moved into `owner`'s folder (a file that cannot move stays, logged). */
export async function moveToUserCache(
  event: MessageEvent,
  cacheDir: string,
  owner: string,
  logger: Logger,
): Promise<MessageEvent> {
  const attachments = event.attachments ?? [];
  const root = path.resolve(cacheDir);
  if (!attachments.some((a) => a.path !== null && path.dirname(path.resolve(a.path)) === root)) return event;
  const folder = userMediaDir(cacheDir, owner);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const moved = await Promise.all(
    attachments.map(async (attachment) => {
      if (attachment.path === null || path.dirname(path.resolve(attachment.path)) !== root) return attachment;
      const target = path.join(folder, path.basename(attachment.path));
      try {
        await rename(attachment.path, target);
        return { ...attachment, path: target };
      } catch (err) {
        logger.warn(
          { err, file: attachment.path },
          "media: a received file could not move into its sender's cache folder",
        );
        return attachment;
      }
    }),
  );
  return { ...event, attachments: moved };
}
