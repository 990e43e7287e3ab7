/** Tool results are JSON strings, for success and errors alike: handlers never throw. */

/** Serialises a result object for the model. */
export function toolResult(value: Record<string, unknown>): string {
  return JSON.stringify(value);
}

/** The message of anything thrown, for an `{"error": ...}` result. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
