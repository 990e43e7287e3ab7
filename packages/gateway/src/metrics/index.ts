export {
  HOOK_BUCKETS_S,
  METRICS,
  type MetricSpec,
  type MetricType,
  MODEL_BUCKETS_S,
  PROCESS_METRIC_EXAMPLES,
  TURN_BUCKETS_S,
} from './catalog.js';
export { CellCounter, CounterCell } from './cells.js';
export {
  type ConsoleMetricsSnapshot,
  GatewayMetrics,
  type GatewayMetricsOptions,
  type IgnoredReason,
  type MetricsSources,
  ownerMetricLabel,
  PLATFORM_SAMPLE_INTERVAL_MS,
  PlatformMetrics,
} from './gateway-metrics.js';
export { METRICS_PATH, registerMetricsRoute } from './metrics-route.js';
export { ReconnectTracker } from './reconnect-tracker.js';
