/** The API platform's way into the pipeline: dispatch hook, then a lane job the turn stage answers. */
import { randomUUID } from 'node:crypto';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { BusyMode } from '../session-lanes.js';
import { type ApiJob, type ApiTurnOutcome, type ApiTurnRequest, apiEvent, apiSessionKey } from './api-turn.js';
import { type DispatchPorts, dispatchHook } from './dispatch.js';

export interface ApiEntryPorts {
  dispatch: DispatchPorts;
  metrics: GatewayMetrics;
  busyMode: BusyMode;
  accepting(): boolean;
  submit(laneKey: string, job: ApiJob, mode: BusyMode): void;
}

export async function runApiRequest(ports: ApiEntryPorts, request: ApiTurnRequest): Promise<ApiTurnOutcome> {
  if (!ports.accepting()) return { kind: 'unavailable' };
  const acceptedAt = ports.metrics.now();
  const requestId = randomUUID();
  const counters = ports.metrics.platform('api');
  counters.accepted.inc();
  const dispatched = await dispatchHook(ports.dispatch, apiEvent(request, requestId, Date.now()));
  if (dispatched.kind === 'skipped') {
    counters.ignored('hook_skip');
    return { kind: 'skipped' };
  }
  request.onAdmitted?.();
  // computed once: the lane and the session stage both read it from the job
  const sessionKey = request.key ? apiSessionKey(request.key) : null;
  return new Promise<ApiTurnOutcome>((resolve, reject) => {
    const job: ApiJob = {
      api: true,
      event: dispatched.event,
      text: dispatched.event.text,
      sessionKey,
      history: request.history,
      signal: request.signal,
      ...(request.onDelta ? { onDelta: request.onDelta } : {}),
      acceptedAt,
      resolve,
      reject,
    };
    // steering hands text to another request's turn, whose answer this request would never get: it queues
    const mode = ports.busyMode === 'steer' ? 'queue' : ports.busyMode;
    // a stateless request has a lane of its own: it waits only for a free run slot
    ports.submit(sessionKey ?? `api-stateless:${requestId}`, job, mode);
  });
}
