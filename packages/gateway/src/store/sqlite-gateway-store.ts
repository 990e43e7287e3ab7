/**
 * The SQLite store behind the gateway's asynchronous ports: a thin adapter over the synchronous
 * repositories. Units of work go through the group commit (commit-queue.ts): those issued within
 * one event-loop turn share one better-sqlite3 transaction, each in its own savepoint. Reads
 * answer at once (an already-settled promise: no extra event-loop turn).
 */
import type { ChildSessionsPort } from '@hermes/agent';
import { CommitQueue, type Transaction } from '../commit-queue.js';
import type { OutboxPort } from '../delivery/deliver.js';
import type {
  ApiResponsesPort,
  InboxPort,
  PairingPort,
  PlatformStatePort,
  SessionsPort,
  TranscriptsPort,
} from '../ports.js';
import type { Async, GatewayStore } from './gateway-store.js';
import type { StoreWrite, WriteResult } from './unit-of-work.js';

/** The synchronous repositories the SQLite store (packages/store) has. */
export interface SyncStore {
  sessions: SessionsPort;
  transcripts: TranscriptsPort;
  inbox: InboxPort;
  outbox: OutboxPort;
  pairing: PairingPort;
  platformState: PlatformStatePort;
  childSessions?: ChildSessionsPort;
  apiResponses?: ApiResponsesPort;
  /** runs `fn` (synchronous) in one transaction, or a savepoint when already inside one */
  transaction: Transaction;
}

/** Applies one write with the synchronous repositories (inside the unit's transaction). */
export function applyWrite(store: SyncStore, write: StoreWrite): WriteResult {
  switch (write.kind) {
    case 'inbox.accept': {
      const { sessionKey, state } = write;
      const options = { ...(sessionKey !== undefined ? { sessionKey } : {}), ...(state ? { state } : {}) };
      return store.inbox.accept(write.platform, write.key, write.payload, options);
    }
    case 'inbox.mark':
      store.inbox.mark(write.id, write.status);
      return undefined;
    case 'transcripts.append':
      return store.transcripts.append(write.sessionId, write.messages);
    case 'outbox.enqueue':
      return store.outbox.enqueue([...write.rows]);
    case 'outbox.markSent':
      store.outbox.markSent(write.id, write.platformMessageId);
      return undefined;
    case 'outbox.markFailed':
      store.outbox.markFailed(write.id, write.error);
      return undefined;
    case 'outbox.recordAttempt':
      store.outbox.recordAttempt(write.id, write.error);
      return undefined;
    case 'platformState.set':
      store.platformState.set(write.platform, write.key, write.value);
      return undefined;
    case 'platformState.delete':
      if (store.platformState.delete) store.platformState.delete(write.platform, write.key);
      else if (store.platformState.get(write.platform, write.key) !== undefined)
        store.platformState.set(write.platform, write.key, '');
      return undefined;
  }
}

export function sqliteGatewayStore(store: SyncStore): GatewayStore {
  const queue = new CommitQueue(store.transaction);
  return {
    sessions: {
      create: async (s) => store.sessions.create(s),
      activeByKey: async (key) => store.sessions.activeByKey(key),
      latestByKey: async (key) => store.sessions.latestByKey(key),
      idleActive: async (query) => store.sessions.idleActive(query),
      end: async (id, reason) => store.sessions.end(id, reason),
    },
    transcripts: {
      append: async (sessionId, messages) => store.transcripts.append(sessionId, messages),
      list: async (sessionId) => store.transcripts.list(sessionId),
      count: async (sessionId) => store.transcripts.count(sessionId),
    },
    pairing: {
      request: async (platform, userId, userName) => store.pairing.request(platform, userId, userName),
      isApproved: async (platform, userId) => store.pairing.isApproved(platform, userId),
    },
    platformState: store.platformState,
    ...(store.childSessions ? { childSessions: store.childSessions } : {}),
    ...(store.apiResponses ? { apiResponses: asyncResponses(store.apiResponses) } : {}),
    inbox: { pending: async () => store.inbox.pending() },
    outbox: {
      forInbox: async (inboxId) => store.outbox.forInbox(inboxId),
      pendingCounts: () => store.outbox.pendingCounts(),
    },
    readState: async (platform, key) => store.platformState.get(platform, key),
    commit: (work) => queue.run(() => work.map((write) => applyWrite(store, write))),
  };
}

function asyncResponses(responses: ApiResponsesPort): Async<ApiResponsesPort> {
  return {
    record: async (id, sessionId, messageCount) => responses.record(id, sessionId, messageCount),
    get: async (id) => responses.get(id),
  };
}
