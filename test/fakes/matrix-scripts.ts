// The scripted failures of the fake Matrix homeserver (test/fakes/matrix-server.ts): rate limits
// (429 M_LIMIT_EXCEEDED with retry_after_ms) and 5xx answers on the next sends, 5xx answers given
// after the event was posted (the retry with the same transaction id must not post it again),
// refused edits, a refused upload, refused or raw (malformed) sync answers.

export type SendScript =
  | { kind: 'rate'; ms: number }
  | { kind: 'status'; status: number; posted: boolean }
  | { kind: 'refuse-edit' };

export interface FakeMatrixControl {
  /** the next message send answers 429 M_LIMIT_EXCEEDED with this retry_after_ms */
  rateLimitNextSend(retryAfterMs: number): void;
  /** the next `count` message sends answer `status`; `posted`: the event is posted first (the answer is lost) */
  failNextSends(count: number, status: number, options?: { posted?: boolean }): void;
  /** the next edit answers 429 M_LIMIT_EXCEEDED */
  rateLimitNextEdit(retryAfterMs: number): void;
  /** the next `count` edits are refused (400) */
  refuseNextEdits(count: number): void;
  /** the next upload is refused (413 M_TOO_LARGE) */
  failNextUpload(): void;
  /** every /sync answers this status (M_UNKNOWN) until set back to null */
  refuseSyncs(status: number | null): void;
  /**
   * the next /sync answers this text as its body, with 200 (a long poll waiting now answers it at
   * once); `"$SINCE"` in it becomes the request's own `since` token (a body that does not move the token)
   */
  nextSyncRaw(text: string): void;
  /** raw sync answers queued and not yet given */
  pendingRaw(): number;
  /** destroys the connections of the long polls waiting now */
  dropSyncs(): void;
  /** message sends answered so far with a scripted 429, and with a scripted 5xx */
  sendFailures(): { rateLimited: number; serverErrors: number };
}

export interface Scripts {
  control: Omit<FakeMatrixControl, 'dropSyncs'>;
  syncRefusal: number | null;
  /** the script for the next send of this kind, taken */
  forSend(kind: 'message' | 'edit' | 'other'): SendScript | undefined;
  takeSyncRaw(): string | undefined;
  /** called when a raw answer is queued (the server wakes its waiting long polls) */
  onRaw: () => void;
  takeUploadFailure(): boolean;
  reset(): void;
}

export function matrixControl(): Scripts {
  const sends: SendScript[] = [];
  const edits: SendScript[] = [];
  const raws: string[] = [];
  const failures = { rateLimited: 0, serverErrors: 0 };
  let uploadFailure = false;
  const scripts: Scripts = {
    syncRefusal: null,
    control: {
      rateLimitNextSend: (ms) => void sends.push({ kind: 'rate', ms }),
      failNextSends(count, status, options = {}) {
        for (let i = 0; i < count; i += 1) sends.push({ kind: 'status', status, posted: options.posted ?? false });
      },
      rateLimitNextEdit: (ms) => void edits.push({ kind: 'rate', ms }),
      refuseNextEdits(count) {
        for (let i = 0; i < count; i += 1) edits.push({ kind: 'refuse-edit' });
      },
      failNextUpload() {
        uploadFailure = true;
      },
      refuseSyncs(status) {
        scripts.syncRefusal = status;
      },
      pendingRaw: () => raws.length,
      sendFailures: () => ({ ...failures }),
      nextSyncRaw(text) {
        raws.push(text);
        scripts.onRaw();
      },
    },
    forSend(kind) {
      const script = kind === 'message' ? sends.shift() : kind === 'edit' ? edits.shift() : undefined;
      if (kind === 'message' && script?.kind === 'rate') failures.rateLimited += 1;
      if (kind === 'message' && script?.kind === 'status' && script.status >= 500) failures.serverErrors += 1;
      return script;
    },
    takeSyncRaw: () => raws.shift(),
    onRaw: () => {},
    takeUploadFailure() {
      const was = uploadFailure;
      uploadFailure = false;
      return was;
    },
    reset() {
      failures.rateLimited = 0;
      failures.serverErrors = 0;
      sends.length = 0;
      edits.length = 0;
      raws.length = 0;
      uploadFailure = false;
      scripts.syncRefusal = null;
    },
  };
  return scripts;
}
