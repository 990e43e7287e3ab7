/** Jobs a lane will never run (`/stop`, `/new`, shutdown): API requests are answered, chat messages marked. */

import type { ApiJob } from './pipeline/api-turn.js';
import type { LaneJob } from './pipeline/input.js';
import { settleInbox } from './pipeline/outcome.js';
import type { InboxPort } from './ports.js';

/** At stop (`stopping`) chat messages stay pending: the next start redoes them. */
export function finishDropped(
  inbox: Pick<InboxPort, 'mark'>,
  jobs: readonly (LaneJob | ApiJob)[],
  stopping = false,
): void {
  for (const job of jobs) {
    if ('api' in job) job.resolve({ kind: 'unavailable' });
    else if (!stopping) {
      for (const id of [job.inboxId, ...(job.joined ?? [])])
        settleInbox(inbox, id, { kind: 'skipped', reason: 'dropped' });
    }
  }
}
