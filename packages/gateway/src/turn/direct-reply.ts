/**
 * An awaited answer's side of the turn stage (the `http`, `sse`, `cron` and `return` sinks: the API
 * platform's two endpoints, scheduled jobs, a gateway hook's `runAgent`): the turn runs under the
 * lane's signal and the caller's, a stored session's transcript is committed (or the sink's own
 * conversation kept), and the outcome goes back to the caller, who writes it out.
 */

import type { CommitWork } from '@hermes/store';
import type { DirectSink } from '../pipeline/input.js';
import type { RunControl } from '../sessions/session-lanes.js';
import type { SinkReply } from './turn.js';

export function openDirectReply(
  ports: { commit: CommitWork },
  sink: DirectSink,
  sessionId: string,
  control: RunControl,
): SinkReply {
  return {
    // nobody to ask over HTTP: the approval hooks decide (a cron job denies)
    approval: sink.approval ?? { surface: 'gateway', key: sessionId },
    signal: sink.signal ? AbortSignal.any([control.signal, sink.signal]) : control.signal,
    ...(sink.onDelta ? { onDelta: (text: string) => sink.onDelta?.(text) } : {}),
    resumable: false,
    close: () => sink.conversation?.close(sessionId),
    finish: async ({ result, text, failure, keep }) => {
      let storeError: unknown = null;
      try {
        if (keep) {
          await ports.commit(keep.writes);
          keep.committed();
        }
        await sink.conversation?.keep(sessionId, result);
      } catch (error) {
        storeError = error;
      }
      const completed = result.status === 'completed';
      sink.settle({ kind: 'ran', result, text, failure: completed ? null : failure(), storeError });
      return { answered: completed };
    },
  };
}
