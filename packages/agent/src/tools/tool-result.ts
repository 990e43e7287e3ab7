/** The JSON strings the built-in tools return: results and errors are data for the model. */

/** Serializes a tool result object as the JSON string the model reads. */
export function jsonResult(value: object): string {
  return JSON.stringify(value);
}

/** An error result: `{"error": message, ...extra}`. */
export function errorResult(message: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ error: message, ...extra });
}
