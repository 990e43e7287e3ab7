/**
 * prom-client's default metrics (CPU, memory, event-loop lag, GC, handles), collected once per
 * process and shared by every gateway's registry: they describe the process, and collecting them
 * per gateway would start one event-loop monitor and one GC observer per in-process gateway.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';

let shared: Registry | null = null;

/** The process-wide registry of the default metrics, created on first use. */
export function processMetricsRegistry(): Registry {
  if (!shared) {
    shared = new Registry();
    collectDefaultMetrics({ register: shared });
  }
  return shared;
}
