/** pino `redact` paths: credential-named keys at the top level and up to three levels down. */

const SECRET_KEYS = [
  'authorization',
  'Authorization',
  'api_key',
  'apiKey',
  'token',
  'password',
  'secret',
  '["x-api-key"]',
] as const;

function at(prefix: string, key: string): string {
  return key.startsWith('[') ? `${prefix}${key}` : prefix === '' ? key : `${prefix}.${key}`;
}

/** e.g. `authorization`, `*.authorization`, `*.*.authorization` (req.headers.authorization). */
export const REDACT_PATHS: readonly string[] = Object.freeze(
  ['', '*', '*.*', '*.*.*'].flatMap((prefix) => SECRET_KEYS.map((key) => at(prefix, key))),
);
