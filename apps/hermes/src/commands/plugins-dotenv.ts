/** Appends secrets to HERMES_HOME/.env: created with mode 0600, values never printed. */
import { appendFileSync, chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { makePrivateParent } from '@hermes/config';

const PLAIN_VALUE = /^[\w.\-:/+@,=~%]*$/;

/** The value as dotenv reads it back: bare when plain, else quoted with a quote it does not contain. */
export function quoteEnvValue(value: string): string {
  if (PLAIN_VALUE.test(value)) return value;
  for (const quote of ["'", '"', '`']) if (!value.includes(quote)) return `${quote}${value}${quote}`;
  throw new Error('the value contains every quote character (\' " `); add it to .env by hand');
}

/** Appends `KEY=value` lines to the .env file at `path` (created 0600 when missing). */
export function appendDotEnv(path: string, entries: readonly (readonly [string, string])[]): void {
  if (entries.length === 0) return;
  const text = entries.map(([key, value]) => `${key}=${quoteEnvValue(value)}\n`).join('');
  if (!existsSync(path)) {
    makePrivateParent(path);
    writeFileSync(path, text, { mode: 0o600 });
    chmodSync(path, 0o600);
    return;
  }
  const before = readFileSync(path, 'utf8');
  appendFileSync(path, before === '' || before.endsWith('\n') ? text : `\n${text}`);
  chmodSync(path, 0o600); // an older .env created with a wider mode is tightened: it holds secrets
}
