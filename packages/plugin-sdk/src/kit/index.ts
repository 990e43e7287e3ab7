// The platform kit: what every platform adapter needs and should not write again.

export { type AdapterDeps, type AdapterKit, createAdapterKit, resolveAdapterDeps } from './adapter-kit.js';
export { isCached, storeCached } from './attachment-cache.js';
export { abortableSleep, type BackoffPolicy, backoffDelayMs, DEFAULT_BACKOFF, type Sleep } from './backoff.js';
export { createInFlight, type InFlight } from './in-flight.js';
export { type EventFields, textOrMediaEvent } from './inbound-event.js';
export { createIntakeRunner, type IntakeRunner, type IntakeRunnerOptions } from './intake-runner.js';
export {
  isTableRow,
  isTableSeparator,
  isTableStart,
  layoutTable,
  renderTableLines,
  tableCells,
  takeTable,
} from './render-table.js';
export { createStatusTracker, type StatusTracker, type StatusTrackerOptions } from './status-tracker.js';
