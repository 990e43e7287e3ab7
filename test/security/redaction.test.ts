// Redaction by value: whatever a secret's name, every value of HERMES_HOME/.env, credential-named
// env vars and URL passwords are redacted as given and in the forms a shell can turn them into
// (base64 at any alignment, URL-encoding, hex, reversed, spaced out); URL credentials are stripped.
import { execFileSync } from 'node:child_process';
import { loadConfig, secretValues } from '@hermes/config';
import { createRedactor, REDACTED } from '@hermes/logging';
import { describe, expect, it } from 'vitest';
import { homeWithConfig } from '../../packages/config/test/helpers.js';

const PAT = 'ghp_R3dactMe0123456789abcdefGHIJKLmnop';
const DB_PASS = 's3cr3t/Pa$$:w0rd';
const SMTP = 'smtp-Passw0rd-9xq';
const DOTENV = {
  GITHUB_PAT: PAT,
  DATABASE_URL: `postgres://app:${encodeURIComponent(DB_PASS)}@db.internal:5432/prod`,
  SMTP_PASS: SMTP,
  RANDOM_NAME: 'odd-named-value-77',
};

function secretsFor(env: Record<string, string | undefined>, dotenv: Record<string, string> = DOTENV) {
  const { home } = homeWithConfig('');
  const { config } = loadConfig({ home, env });
  return secretValues(config, env, { dotenv });
}

const redactor = createRedactor(secretsFor({}));

function shell(script: string, input: string): string {
  return execFileSync('sh', ['-c', script], { input, encoding: 'utf8' });
}

describe('which values are secrets', () => {
  it('every .env value whatever its name, and the password inside a URL', () => {
    const secrets = secretsFor({});
    for (const value of [PAT, SMTP, 'odd-named-value-77', DOTENV.DATABASE_URL, DB_PASS]) {
      expect(secrets).toContain(value);
    }
  });

  it('from the process env: credential names and URLs with credentials, not PATH/HOME/LANG or words', () => {
    const env = {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: '/home/someone',
      PWD: '/home/someone/project',
      LANG: 'en_US.UTF-8',
      SHELL: '/bin/bash',
      EDITOR: 'vim-basic',
      SSH_AUTH_SOCK: '/tmp/ssh-XXXX/agent.42',
      FEATURE_TOKEN_MODE: 'disabled', // a credential name, an ordinary word: kept (not a path)
      MYSQL_PWD: 'mysql-pwd-value',
      SENTRY_DSN: 'https://abc123def@o1.ingest.example/42',
      CUSTOM_ENDPOINT: 'https://robot:r0b0t-pass@example.org/x',
      AWS_SECRET_ACCESS_KEY: 'aws-secret-access-value',
      SOME_FLAG_KEY: 'true',
    };
    const secrets = secretsFor(env, {});
    expect(secrets).toEqual(
      expect.arrayContaining([
        'mysql-pwd-value',
        'https://abc123def@o1.ingest.example/42',
        'robot:r0b0t-pass',
        'r0b0t-pass',
        'aws-secret-access-value',
      ]),
    );
    // a URL with credentials under an ordinary name: its credentials, not the host
    expect(secrets).not.toContain(env.CUSTOM_ENDPOINT);
    for (const ordinary of [env.PATH, env.HOME, env.PWD, env.LANG, env.SHELL, env.EDITOR, env.SSH_AUTH_SOCK, 'true']) {
      expect(secrets).not.toContain(ordinary);
    }
  });
});

describe('redaction by value, in every form a shell can give it', () => {
  it.each([
    ['as is', (s: string) => `x ${s} y`],
    ['base64', (s: string) => shell('base64 -w0', s)],
    ['base64 after a newline (echo)', (s: string) => shell('base64 -w0', `${s}\n`)],
    ['base64 at offset 1', (s: string) => shell('base64 -w0', `A${s}`)],
    ['base64 at offset 2', (s: string) => shell('base64 -w0', `AB${s}`)],
    ['base64 wrapped at 76 columns', (s: string) => shell('base64', `${'x'.repeat(50)}${s}${'y'.repeat(40)}`)],
    ['url-safe base64', (s: string) => Buffer.from(`Q${s}`).toString('base64url')],
    ['URL-encoded', (s: string) => `q=${encodeURIComponent(s)}&x=1`],
    ['hex', (s: string) => shell('xxd -p | tr -d "\\n"', s)],
    ['HEX', (s: string) => Buffer.from(s).toString('hex').toUpperCase()],
    ['reversed (rev)', (s: string) => shell('rev', `${s}\n`)],
    ['spaced out (sed)', (s: string) => shell("sed 's/./& /g'", `${s}\n`)],
    ['one character per line', (s: string) => shell('fold -w1', `${s}\n`)],
    ['inside a JSON log line', (s: string) => JSON.stringify({ msg: `got ${s}`, spaced: [...s].join('\n') })],
  ])('%s', (_form, encode) => {
    for (const secret of [PAT, SMTP, DB_PASS, 'odd-named-value-77']) {
      const text = encode(secret);
      const out = redactor(text);
      expect(out).toContain(REDACTED);
      // nothing of the secret's encoding is left: decode what is left and look again
      const squeezed = out.replace(/\s+/g, '');
      expect(squeezed).not.toContain(secret);
      expect(squeezed).not.toContain(Buffer.from(secret).toString('base64').slice(2, 10));
      expect(squeezed.toLowerCase()).not.toContain(Buffer.from(secret).toString('hex').slice(2, 14));
      expect(squeezed).not.toContain([...secret].reverse().join('').slice(1, 9));
    }
  });

  it('a long secret (a private key over several lines) whole in every form, and when cut short', () => {
    const body = Buffer.from(Array.from({ length: 900 }, (_, i) => (i * 7919 + 13) % 251));
    const pem = `-----BEGIN PRIVATE KEY-----\n${body.toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END PRIVATE KEY-----`;
    const redact = createRedactor([pem, SMTP]);
    const text = [
      `as is ${pem}`,
      `base64 ${Buffer.from(pem).toString('base64')}`,
      `reversed ${[...pem].reverse().join('')}`,
      `spaced ${[...pem].join(' ')}`,
      `cut ${pem.slice(0, 300)}`,
    ].join(' | ');
    const out = redact(text);
    expect(out).toBe(
      `as is ${REDACTED} | base64 ${REDACTED}${out.split('base64 [REDACTED]')[1]?.split(' | ')[0]} | reversed ${REDACTED} | spaced ${REDACTED} | cut ${REDACTED}`,
    );
    // at most the last (partial) base64 character or padding is left of the encoded key
    expect(out.split('base64 [REDACTED]')[1]?.split(' | ')[0]?.length).toBeLessThanOrEqual(3);
  });

  it('strips the credentials of any URL in text, keeping the scheme and host', () => {
    const text = 'model failed at http://user:pass@127.0.0.1:9/v1 and "redis://:pw@cache:6379"';
    expect(redactor(text)).toBe(
      `model failed at http://${REDACTED}@127.0.0.1:9/v1 and "redis://${REDACTED}@cache:6379"`,
    );
  });

  it('leaves ordinary text alone', () => {
    const text = 'The quick brown fox; PATH=/usr/bin; see https://example.org/a?b=c at 12:30:45 user@example.org';
    expect(redactor(text)).toBe(text);
  });

  it('a redactor with no secrets still strips URL credentials and known token shapes', () => {
    const bare = createRedactor([]);
    expect(bare('https://a:b@h/ sk-abcdefghijklmnop1234')).toBe(`https://${REDACTED}@h/ ${REDACTED}`);
  });
});
