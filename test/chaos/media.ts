// Media in the chaos run. Inbound: a share of the DMs on Telegram, Discord and Slack carry a photo
// (the caption is the chaos text), which the gateway downloads and shows the model as an image.
// Outbound: a share of the model's answers end with a `MEDIA: <path>` line naming a PNG in a temp
// dir outside HERMES_HOME (`chaos-m<N>.png`, so each upload names its message); the gateway sends
// it as a native attachment, which the fakes record (Telegram `uploads`, Discord attachments on a
// sent message, Slack `sharedFiles`). The ledger counts each attachment: uploaded once, sent twice
// after a kill -9, not uploaded (lost), or uploaded twice (duplicated).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAKE_PNG } from '../fakes/openai-server.js';
import type { Rng } from './rng.js';

/** share of the chat platforms' DMs that carry a photo */
export const PHOTO_SHARE = 0.12;
/** share of the chat platforms' answers that carry a MEDIA line (the API platform answers text only) */
export const ATTACHMENT_SHARE = 0.12;

/** An inbound photo as the fakes take it. */
export interface ChaosPhoto {
  data: Buffer;
  fileName: string;
  mimeType: string;
}

/** `chaos-m<N>.png`: the file name an outbound attachment of message N is uploaded under */
export const ATTACHMENT_PATTERN = /^chaos-m(\d+)\.png$/;

export class ChaosMedia {
  /** where the MEDIA files live: HERMES_HOME/cache/chaos-media, in read_file's roots (which MEDIA obeys) */
  readonly dir: string;
  /** messages offered with a photo */
  readonly photos = new Set<number>();
  /** messages whose answer carries a MEDIA line */
  readonly attachments = new Set<number>();
  readonly #rng: Rng;

  constructor(rng: Rng, home: string) {
    this.#rng = rng;
    this.dir = join(home, 'cache', 'chaos-media');
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  /** Draws whether message `key` carries a photo (DMs on the chat platforms only). */
  photoFor(key: number, platform: string, group: boolean): ChaosPhoto | undefined {
    const draw = this.#rng.next();
    if (group || platform === 'api' || draw >= PHOTO_SHARE) return undefined;
    this.photos.add(key);
    return { data: FAKE_PNG, fileName: `photo-${key}.png`, mimeType: 'image/png' };
  }

  /** Draws whether the answer to message `key` carries an attachment (its file written now). */
  drawAttachment(key: number, platform: string): void {
    const draw = this.#rng.next();
    if (platform === 'api' || draw >= ATTACHMENT_SHARE) return;
    writeFileSync(join(this.dir, `chaos-m${key}.png`), FAKE_PNG);
    this.attachments.add(key);
  }

  /** The answer's MEDIA line for message `key`, if it has one (the model adds it). */
  mediaLine = (key: number): string | undefined =>
    this.attachments.has(key) ? `MEDIA: ${join(this.dir, `chaos-m${key}.png`)}` : undefined;

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The chaos key an uploaded file names, if any. */
export function attachmentKey(fileName: string): number | undefined {
  const match = ATTACHMENT_PATTERN.exec(fileName);
  return match ? Number(match[1]) : undefined;
}
