/** Node system-error helpers: branch on `code`, never on message text. */

/** The `code` of a Node system error (`ENOENT`, `EACCES`, ...), or undefined for anything else. */
export function errnoCode(error: unknown): string | undefined {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}

/** A one-line description of any thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
