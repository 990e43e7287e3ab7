/**
 * The store as the gateway sees it: asynchronous, so SQLite (through `sqliteGatewayStore`) and
 * PostgreSQL plug in alike. Writes that belong together go through `commit` as one unit of work.
 */
import type { ChildSessionsPort } from '@hermes/agent';
import type {
  ApiResponsesPort,
  OutboxRowLike,
  PairingPort,
  PlatformStatePort,
  SessionsPort,
  TranscriptsPort,
} from '../ports.js';

/** An asynchronous port: every method of `P`, answering through a promise. */
export type Async<P> = {
  [K in keyof P]: P[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : P[K];
};

import type { CommitWork } from './unit-of-work.js';

/** An unfinished inbox row; `attempts` counts how many starts already tried to resume it. */
export interface PendingInboxRow {
  id: number;
  platform: string;
  payload: unknown;
  status: string;
  attempts: number;
  sessionKey: string | null;
}

export interface GatewayStore {
  /** the active session of a key (read once per key: the session stage caches it), created, ended */
  sessions: Async<SessionsPort>;
  /** histories (the turn service reads a cold session's), counts; the pipeline appends through `commit` */
  transcripts: Async<TranscriptsPort>;
  /** the authorize stage: approved users, a stranger's pairing code (request writes it) */
  pairing: Async<PairingPort>;
  /** the adapters' own state (`PlatformState`, synchronous for plugins) */
  platformState: PlatformStatePort;
  childSessions?: ChildSessionsPort;
  /** the Responses API's stored responses (absent: no `previous_response_id` chaining) */
  apiResponses?: Async<ApiResponsesPort>;
  inbox: {
    /** unfinished rows, read once at start (recovery) */
    pending(): Promise<PendingInboxRow[]>;
  };
  outbox: {
    /** the rows written for an inbox row (recovery resends what is not sent) */
    forInbox(inboxId: number): Promise<OutboxRowLike[]>;
    /** pending rows per platform (the metrics' outbox backlog, read at scrape time) */
    pendingCounts(): readonly { platform: string; count: number }[];
  };
  /** reads a platform state key asynchronously (a streamed answer's message ids) */
  readState(platform: string, key: string): Promise<string | undefined>;
  /** commits a unit of work in one transaction */
  commit: CommitWork;
}
