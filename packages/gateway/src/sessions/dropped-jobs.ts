/** Jobs a lane will never run (`/stop`, `/new`, shutdown): awaited ones are answered, chat messages marked. */

import type { CommitWork, StoreWrite } from '@hermes/store';
import type { GatewayTurnJob } from '../pipeline/input.js';
import { settleInbox } from '../pipeline/outcome.js';

/** At stop (`stopping`) chat messages stay pending: the next start redoes them. */
export function finishDropped(commit: CommitWork, jobs: readonly GatewayTurnJob[], stopping = false): Promise<unknown> {
  const marks: StoreWrite[] = [];
  for (const { sink } of jobs) {
    if (sink.kind !== 'outbox') sink.settle({ kind: 'unavailable' });
    else if (!stopping) {
      for (const id of [sink.inboxId, ...(sink.joined ?? [])])
        marks.push(...settleInbox(id, { kind: 'skipped', reason: 'dropped' }));
    }
  }
  return marks.length === 0 ? Promise.resolve() : commit(marks);
}
