/** Narrowing for Node's filesystem errors. */

/** True when `error` is a Node system error with the given code (e.g. "ENOENT"). */
export function hasErrorCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}
