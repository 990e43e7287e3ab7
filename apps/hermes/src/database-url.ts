/**
 * HERMES_DATABASE_URL, read and checked for every command that opens PostgreSQL (state.backend
 * postgres, `hermes state copy`), and database errors with the URL's secret parts hidden.
 */
import { EXIT } from '@hermes/protocol';
import { isPostgresUrl, maskDatabaseUrl } from '@hermes/store';
import { CliExit } from './cli-error.js';

export const DATABASE_URL_ENV = 'HERMES_DATABASE_URL';

/** `url` trimmed; exit 2 naming `where` when it is not a postgres:// or postgresql:// URL. */
export function checkedUrl(url: string, where: string): string {
  const trimmed = url.trim();
  if (!isPostgresUrl(trimmed)) {
    throw new CliExit(
      EXIT.USAGE,
      `${where} must be a postgres:// or postgresql:// URL (got ${maskDatabaseUrl(trimmed) || 'an empty value'})`,
    );
  }
  return trimmed;
}

/** HERMES_DATABASE_URL from `env` (the process's with HERMES_HOME/.env); exit 2 naming it when missing. */
export function envUrl(env: Readonly<Record<string, string | undefined>>, why: string): string {
  const url = env[DATABASE_URL_ENV];
  if (url === undefined || url.trim() === '') {
    throw new CliExit(
      EXIT.USAGE,
      `${why} needs ${DATABASE_URL_ENV} (postgres://user:password@host:5432/db), e.g. in HERMES_HOME/.env`,
    );
  }
  return checkedUrl(url, DATABASE_URL_ENV);
}

/** `error`'s message with every secret part of `url` replaced, for the one line the CLI prints. */
export function scrubbed(error: unknown, url: string): CliExit {
  let message = error instanceof Error ? error.message : String(error);
  try {
    const password = decodeURIComponent(new URL(url).password);
    if (password !== '') message = message.replaceAll(password, '***');
  } catch {
    // not a URL: nothing more to hide than the URL itself
  }
  message = message.replaceAll(url, maskDatabaseUrl(url));
  return new CliExit(EXIT.ERROR, message);
}
