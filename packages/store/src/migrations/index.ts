import type { Migration } from '../migration.js';
import { sessionsAndMessages } from './0001-sessions-and-messages.js';
import { gatewayTables } from './0002-gateway-tables.js';
import { inboxRefusedStatus } from './0003-inbox-refused-status.js';
import { apiResponses } from './0004-api-responses.js';
import { outboxMediaKind } from './0005-outbox-media-kind.js';
import { sessionSearch } from './0006-session-search.js';
import { memorySnapshots } from './0007-memory-snapshots.js';
import { childSessions } from './0008-child-sessions.js';
import { sessionModel } from './0009-session-model.js';
import { contextSummaries } from './0010-context-summaries.js';
import { cronJobs } from './0011-cron-jobs.js';
import { inboxOwner } from './0012-inbox-owner.js';
import { clusterTables } from './0013-cluster-tables.js';
import { identityLinks } from './0014-identity-links.js';
import { usageCounters } from './0015-usage-counters.js';
import { cronCreator } from './0016-cron-creator.js';
import { usageUploads } from './0017-usage-uploads.js';
import { searchIndexBatches } from './0018-search-index-batches.js';
import { sessionTokens } from './0019-session-tokens.js';
import { cronScriptContext } from './0020-cron-script-context.js';

/**
 * Every schema step, oldest first. To change the schema, add a file `NNNN-what-it-does.ts` next to
 * this one and append it here with the next version number; never edit or reorder a released entry.
 * See docs/state.md.
 */
export const MIGRATIONS: readonly Migration[] = [
  sessionsAndMessages,
  gatewayTables,
  inboxRefusedStatus,
  apiResponses,
  outboxMediaKind,
  sessionSearch,
  memorySnapshots,
  childSessions,
  sessionModel,
  contextSummaries,
  cronJobs,
  inboxOwner,
  clusterTables,
  identityLinks,
  usageCounters,
  cronCreator,
  usageUploads,
  searchIndexBatches,
  sessionTokens,
  cronScriptContext,
];
