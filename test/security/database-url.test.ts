// The PostgreSQL URL carries a password: it is masked wherever Hermes prints it, and redacted from
// logs however it reaches the process (HERMES_HOME/.env or the environment).
import { loadConfig, secretValues } from '@hermes/config';
import { createRedactor } from '@hermes/logging';
import { maskDatabaseUrl } from '@hermes/store';
import { describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/run-hermes.js';

const URL_WITH_PASSWORD = 'postgres://hermes:Tr0ub4dor%263@db.internal:5432/hermes?sslmode=require';

describe('the database URL', () => {
  it('is printed with its password masked, encoded or not', () => {
    const masked = maskDatabaseUrl(URL_WITH_PASSWORD);
    expect(masked).toBe('postgres://hermes:***@db.internal:5432/hermes?sslmode=require');
    expect(masked).not.toMatch(/Tr0ub4dor/);
    expect(maskDatabaseUrl('postgres://u:p%40ss@h/db?password=other-secret')).not.toMatch(/p%40ss|p@ss|other-secret/);
  });

  it('has its password redacted from log lines when it comes from the environment, not only from .env', () => {
    const { config } = loadConfig({ home: tempHome(), env: {} });
    const secrets = secretValues(config, { HERMES_DATABASE_URL: URL_WITH_PASSWORD });
    const redact = createRedactor(secrets);
    const line = redact(`connect failed: ${URL_WITH_PASSWORD} (password Tr0ub4dor&3)`);
    expect(line).not.toMatch(/Tr0ub4dor/);
    expect(line).toContain('db.internal');
  });
});
