/** The one error that must reach the receiver: the sink would not take an event (so it is not acked as done). */

export const SINK_FAILED = 'hermes_slack_sink_failed';

/** Thrown by the inbound path when the sink refused an event after its retries; carries a `code` so Bolt keeps it as is. */
export class SinkFailure extends Error {
  readonly code = SINK_FAILED;

  constructor(cause: unknown) {
    super(`slack: the gateway did not accept the event: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'SinkFailure';
  }
}

/** True for a SinkFailure, also after Bolt passed it through its error handling. */
export function isSinkFailure(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === SINK_FAILED;
}
