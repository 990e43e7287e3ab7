// Bookkeeping of the chaos run's attachments: every file the bot uploaded (attributed by its
// `chaos-m<N>.png` name), and per message whose answer carried a MEDIA line, a verdict: uploaded
// once; sent twice, the first copy taken by the platform just before a kill -9 (as for text);
// not uploaded (lost) or uploaded twice otherwise (duplicated). And the photo messages' verdicts.
import { IN_FLIGHT_MS, type OfferedMessage, type Outage, type Verdict } from './ledger.js';
import { attachmentKey, type ChaosMedia } from './media.js';
import type { PlatformName, Reply } from './platforms.js';

/** the platforms photos and attachments go through, in the order the figures name them */
const MEDIA_PLATFORMS: readonly PlatformName[] = [
  'telegram',
  'discord',
  'slack',
  'whatsapp',
  'signal',
  'matrix',
  'email',
];

export type UploadVerdict =
  | 'uploaded-once'
  /** the first upload reached the platform within 1 s of a kill -9, the next start sent it again */
  | 'resent-after-kill'
  /** the answer was delivered, its attachment never */
  | 'not-uploaded'
  | 'uploaded-twice'
  /** a file uploaded for a message whose answer carried none, or whose answer never came */
  | 'unexpected-upload';

/** the verdicts that fail the run */
export const UPLOAD_FAILURES: readonly UploadVerdict[] = ['not-uploaded', 'uploaded-twice', 'unexpected-upload'];

interface Uploads {
  count: number;
  misrouted: number;
  at: number[];
}

export class UploadLedger {
  readonly #uploads = new Map<number, Uploads>();
  readonly unattributed: Reply[] = [];

  ingest(uploads: readonly Reply[], messages: readonly OfferedMessage[]): void {
    const now = Date.now();
    for (const upload of uploads) {
      const key = attachmentKey(upload.text);
      const message = key === undefined ? undefined : messages[key];
      if (key === undefined || message === undefined) {
        this.unattributed.push(upload);
        continue;
      }
      const entry = this.#uploads.get(key) ?? { count: 0, misrouted: 0, at: [] };
      entry.count += 1;
      if (upload.chatId !== message.chatId) entry.misrouted += 1;
      entry.at.push(now);
      this.#uploads.set(key, entry);
    }
  }

  uploadsOf(key: number): Uploads {
    return this.#uploads.get(key) ?? { count: 0, misrouted: 0, at: [] };
  }

  misrouted(): number {
    let n = 0;
    for (const u of this.#uploads.values()) n += u.misrouted;
    return n;
  }

  /** Answered messages whose attachment is not in yet (the run waits for them too). */
  awaited(media: ChaosMedia, answered: (key: number) => boolean): number {
    let n = 0;
    for (const key of media.attachments) if (answered(key) && !this.#uploads.has(key)) n += 1;
    return n;
  }

  /** The verdict on message `m`'s attachment and, unless uploaded once, its report line (times from `started`). */
  judge(
    m: OfferedMessage,
    expected: boolean,
    text: Verdict,
    outages: readonly Outage[],
    started: number,
  ): UploadJudgement {
    const verdict = this.verdict(m.key, expected, text, outages);
    if (verdict === undefined || verdict === 'uploaded-once') return { ...(verdict ? { verdict } : {}), fails: false };
    const u = this.uploadsOf(m.key);
    const seen = u.at.map((t) => `+${((t - started) / 1000).toFixed(1)} s`).join(', ');
    return {
      verdict,
      fails: UPLOAD_FAILURES.includes(verdict),
      line:
        `attachment ${verdict}: chaos-m${m.key} ${m.platform}, answer ${text}, uploads ${u.count}` +
        (seen === '' ? '' : ` (seen at ${seen})`),
    };
  }

  /** The verdict on message `key`'s attachment, given its text verdict; undefined when none was due and none came. */
  verdict(key: number, expected: boolean, text: Verdict, outages: readonly Outage[]): UploadVerdict | undefined {
    const u = this.uploadsOf(key);
    const answered = text === 'answered' || text === 'resent-after-kill';
    if (!expected || !answered) return u.count === 0 ? undefined : 'unexpected-upload';
    if (u.count === 0) return 'not-uploaded';
    if (u.count === 1) return 'uploaded-once';
    const [first = 0, second = 0] = u.at;
    const killed = outages.find((o) => o.kind === 'kill' && Math.abs(o.from - first) <= IN_FLIGHT_MS);
    if (u.count === 2 && killed !== undefined && second >= killed.from) return 'resent-after-kill';
    return 'uploaded-twice';
  }
}

/** The judgement on one message's attachment: its verdict, and a line for the report unless it was uploaded once. */
export interface UploadJudgement {
  verdict?: UploadVerdict;
  line?: string;
  /** the line is a failure (else a listed window) */
  fails: boolean;
}

/** The media lines of the report: photo messages by text verdict, attachments by upload verdict. */
export function mediaFigures(
  media: ChaosMedia,
  messages: readonly OfferedMessage[],
  textVerdict: ReadonlyMap<number, Verdict>,
  uploadVerdict: ReadonlyMap<number, UploadVerdict>,
  uploads: UploadLedger,
  /** model requests that carried an image part */
  withImage: number,
): Record<string, string | number> {
  const photos = messages.filter((m) => media.photos.has(m.key));
  const photoCount = (v: Verdict) => photos.filter((m) => textVerdict.get(m.key) === v).length;
  const byPlatform = (list: readonly OfferedMessage[]) =>
    MEDIA_PLATFORMS.map((p) => list.filter((m) => m.platform === p).length).join(' / ');
  const attached = messages.filter((m) => media.attachments.has(m.key));
  const uploadCount = (v: UploadVerdict) => [...uploadVerdict.values()].filter((u) => u === v).length;
  return {
    'photos: messages with a photo (Telegram / Discord / Slack / WhatsApp / Signal / Matrix / email)': `${photos.length} (${byPlatform(photos)})`,
    'photos: answered once / interrupted / lost / duplicated / sent twice after kill -9 / not delivered by the platform':
      `${photoCount('answered')} / ${photoCount('interrupted')} / ${photoCount('lost')} / ${photoCount('duplicated')} / ` +
      `${photoCount('resent-after-kill')} / ${photos.filter((m) => ['discord-offline', 'discord-at-kill', 'slack-acked-not-stored', 'slack-gave-up'].includes(textVerdict.get(m.key) ?? '')).length}`,
    'photos: model answers to a request with an image part': withImage,
    'attachments: answers with a MEDIA line (Telegram / Discord / Slack / WhatsApp / Signal / Matrix / email)': `${attached.length} (${byPlatform(attached)})`,
    'attachments: uploaded once / sent twice after kill -9 / not uploaded / uploaded twice / unexpected':
      `${uploadCount('uploaded-once')} / ${uploadCount('resent-after-kill')} / ${uploadCount('not-uploaded')} / ` +
      `${uploadCount('uploaded-twice')} / ${uploadCount('unexpected-upload')}`,
    'attachments: uploads naming no message / in the wrong chat': `${uploads.unattributed.length} / ${uploads.misrouted()}`,
  };
}
