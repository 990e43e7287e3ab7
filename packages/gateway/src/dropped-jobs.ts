/** Jobs a lane will never run (`/stop`, `/new`, shutdown): API requests are answered, chat messages marked. */

import type { CommitWork, StoreWrite } from '@hermes/store';
import type { ApiJob } from './pipeline/api-turn.js';
import type { LaneJob } from './pipeline/input.js';
import { settleInbox } from './pipeline/outcome.js';

/** At stop (`stopping`) chat messages stay pending: the next start redoes them. */
export function finishDropped(
  commit: CommitWork,
  jobs: readonly (LaneJob | ApiJob)[],
  stopping = false,
): Promise<unknown> {
  const marks: StoreWrite[] = [];
  for (const job of jobs) {
    if ('api' in job) job.resolve({ kind: 'unavailable' });
    else if (!stopping) {
      for (const id of [job.inboxId, ...(job.joined ?? [])])
        marks.push(...settleInbox(id, { kind: 'skipped', reason: 'dropped' }));
    }
  }
  return marks.length === 0 ? Promise.resolve() : commit(marks);
}
