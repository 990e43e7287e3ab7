/**
 * Every metric the gateway exposes on `GET /metrics`, once: name, type, labels, help and buckets.
 * The metrics are built from this table, and docs/metrics.md is checked against it.
 */

export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface MetricSpec {
  readonly name: string;
  readonly type: MetricType;
  readonly labels: readonly string[];
  readonly help: string;
  /** histograms only: upper bounds in the metric's unit */
  readonly buckets?: readonly number[];
}

/** From a message accepted to its answer sent: model time dominates. */
export const TURN_BUCKETS_S = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300] as const;
/** One HTTP attempt to the model endpoint. */
export const MODEL_BUCKETS_S = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120] as const;
/** One hook callback or gateway hook handler: most return in microseconds, shell hooks in milliseconds. */
export const HOOK_BUCKETS_S = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30] as const;

export const METRICS = {
  messagesReceived: {
    name: 'hermes_messages_received_total',
    type: 'counter',
    labels: ['platform', 'result'],
    help: 'Inbound messages handed over by a platform adapter. result: accepted (new, persisted in the inbox; for platform api, a chat completions request, never stored in the inbox) or duplicate (a redelivery the inbox dropped).',
  },
  messagesIgnored: {
    name: 'hermes_messages_ignored_total',
    type: 'counter',
    labels: ['platform', 'reason'],
    help: 'Accepted messages that started no turn. reason: unauthorized (not allowlisted or paired; a DM is answered with a pairing code), hook_skip (a pre_gateway_dispatch hook skipped it), not_addressed (a group message that neither mentions nor replies to the bot).',
  },
  messagesSent: {
    name: 'hermes_messages_sent_total',
    type: 'counter',
    labels: ['platform'],
    help: 'Outbound messages (answer chunks, pairing codes, command replies) the platform accepted.',
  },
  sendFailures: {
    name: 'hermes_messages_send_failures_total',
    type: 'counter',
    labels: ['platform', 'error'],
    help: 'Outbound messages given up. error: too_long, bad_format, forbidden, not_found, rate_limited (still 429 after every attempt), transient, not_connected.',
  },
  sendRateLimited: {
    name: 'hermes_send_rate_limited_total',
    type: 'counter',
    labels: ['platform'],
    help: "429 answers to a send; each is waited out for the platform's retry-after and retried.",
  },
  turns: {
    name: 'hermes_turns_total',
    type: 'counter',
    labels: ['platform', 'status'],
    help: 'Agent turns for platform messages, by how they ended. status: completed, failed (the user is told), interrupted, max_iterations.',
  },
  turnDuration: {
    name: 'hermes_turn_duration_seconds',
    type: 'histogram',
    labels: ['platform'],
    help: "From accepting a message to its answer's last chunk sent, for turns whose answer was delivered in full (queueing behind the session's earlier turn included).",
    buckets: TURN_BUCKETS_S,
  },
  turnsRunning: {
    name: 'hermes_turns_running',
    type: 'gauge',
    labels: [],
    help: 'Turns holding a run slot now (at most gateway.max_concurrent_runs).',
  },
  turnsQueued: {
    name: 'hermes_turns_queued',
    type: 'gauge',
    labels: [],
    help: "Messages waiting for a turn now: behind their session's running turn, or for a free run slot.",
  },
  outboxPending: {
    name: 'hermes_outbox_pending_messages',
    type: 'gauge',
    labels: ['platform'],
    help: 'Outbox rows not sent yet: being sent, waiting out a 429, or left by a crash for the next start.',
  },
  modelRequestDuration: {
    name: 'hermes_model_request_duration_seconds',
    type: 'histogram',
    labels: ['outcome'],
    help: 'One HTTP attempt to the model endpoint (each retry is one). outcome: ok, error, interrupted (the turn was cut off).',
    buckets: MODEL_BUCKETS_S,
  },
  modelRequestErrors: {
    name: 'hermes_model_request_errors_total',
    type: 'counter',
    labels: ['kind', 'status'],
    help: 'Failed model attempts. kind: http, timeout, connection, response (unusable body); status: the HTTP status, or none.',
  },
  hookDuration: {
    name: 'hermes_hook_duration_seconds',
    type: 'histogram',
    labels: ['hook', 'owner'],
    help: 'Time the hook bus waited for one callback (plugin or shell hook; a timed-out one counts its timeout). owner: plugin:NAME, shell:PROGRAM (the command without its arguments), builtin:NAME',
    buckets: HOOK_BUCKETS_S,
  },
  hookFailures: {
    name: 'hermes_hook_failures_total',
    type: 'counter',
    labels: ['hook', 'owner', 'reason'],
    help: 'Hook callbacks skipped by the bus. reason: error (threw or rejected), timeout (plugins.hook_timeout_ms).',
  },
  gatewayHookDuration: {
    name: 'hermes_gateway_hook_duration_seconds',
    type: 'histogram',
    labels: ['handler'],
    help: 'One run of a gateway hook (HERMES_HOME/hooks) on one event; one reported as hanging counts gateway.hook_timeout_s.',
    buckets: HOOK_BUCKETS_S,
  },
  gatewayHookFailures: {
    name: 'hermes_gateway_hook_failures_total',
    type: 'counter',
    labels: ['handler', 'reason'],
    help: 'Gateway hook runs that failed. reason: error (threw or rejected), timeout (still running after gateway.hook_timeout_s).',
  },
  platformUp: {
    name: 'hermes_platform_up',
    type: 'gauge',
    labels: ['platform'],
    help: '1 while the platform is connected, else 0 (connecting, disconnected, error, stopped, or not started).',
  },
  platformReconnects: {
    name: 'hermes_platform_reconnects_total',
    type: 'counter',
    labels: ['platform'],
    help: 'Returns to connected after the first connection (sampled every second and at each scrape).',
  },
  eventLoopStalls: {
    name: 'hermes_event_loop_stalls_total',
    type: 'counter',
    labels: [],
    help: 'Times the main thread was blocked longer than 1 s (the event-loop watchdog); each is logged with its duration, and /health says degraded for a minute after one.',
  },
  eventLoopDelayMax: {
    name: 'hermes_event_loop_delay_max_seconds',
    type: 'gauge',
    labels: [],
    help: 'The longest event-loop delay of the main thread in the last minute (timer drift, sampled every 100 ms).',
  },
  userTurns: {
    name: 'hermes_user_turns_total',
    type: 'counter',
    labels: ['user', 'tier'],
    help: 'Turns a user started (admitted by their limits), by identity key (<platform>:<userId>) and access tier. One series per user who ran a turn since start: strangers never get one.',
  },
  userTokens: {
    name: 'hermes_user_tokens_total',
    type: 'counter',
    labels: ['user'],
    help: "Model tokens (prompt + completion, as the provider reported them) of a user's turns, by identity key.",
  },
  userCost: {
    name: 'hermes_user_cost_total',
    type: 'counter',
    labels: ['user'],
    help: "The cost of a user's turns by access.prices (0 for a model without a price), by identity key.",
  },
  userLimited: {
    name: 'hermes_user_limited_total',
    type: 'counter',
    labels: ['user', 'limit'],
    help: 'Turns refused because the user was over a limit (no model request made). limit: turns_per_minute, tokens_per_day, cost_per_day.',
  },
} as const satisfies Record<string, MetricSpec>;

/** The metrics prom-client's collectDefaultMetrics adds (process and Node.js runtime), documented by name. */
export const PROCESS_METRIC_EXAMPLES = [
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
  'nodejs_eventloop_lag_seconds',
  'nodejs_eventloop_lag_p99_seconds',
  'nodejs_heap_size_used_bytes',
  'nodejs_gc_duration_seconds',
] as const;
