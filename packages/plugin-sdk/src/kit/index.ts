// The platform kit: what every platform adapter needs and should not write again.
export { abortableSleep, type BackoffPolicy, backoffDelayMs, DEFAULT_BACKOFF, type Sleep } from './backoff.js';
export { createInFlight, type InFlight } from './in-flight.js';
export {
  isTableRow,
  isTableSeparator,
  isTableStart,
  layoutTable,
  renderTableLines,
  tableCells,
} from './render-table.js';
export { createStatusTracker, type StatusTracker, type StatusTrackerOptions } from './status-tracker.js';
