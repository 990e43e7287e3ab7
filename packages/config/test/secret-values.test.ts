import { loadConfig, secretValues } from '@hermes/config';
import { describe, expect, it } from 'vitest';
import { homeWithConfig } from './helpers.js';

describe('secretValues', () => {
  it('collects the api key, secret-named env vars and logging.redact entries, longest first', () => {
    const { home } = homeWithConfig(`
model:
  api_key: sk-from-config-123
logging:
  redact: [MY_CUSTOM_VAR, literal-password-value, short, UNSET_NAME_123]
`);
    const env = {
      TELEGRAM_BOT_TOKEN: '123456:telegram-token-value',
      SLACK_SIGNING_SECRET: 'slack-signing',
      DB_PASSWORD: 'hunter22',
      API_SERVER_KEY: 'tiny',
      MY_CUSTOM_VAR: 'custom-value-1',
      HOME: '/home/not-a-secret',
      OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      EMPTY_TOKEN: undefined,
    };
    const { config } = loadConfig({ home, env });
    const secrets = secretValues(config, env);
    expect(new Set(secrets)).toEqual(
      new Set([
        'sk-from-config-123',
        '123456:telegram-token-value',
        'slack-signing',
        'hunter22',
        'custom-value-1',
        'literal-password-value',
        'UNSET_NAME_123',
      ]),
    );
    expect(secrets).not.toContain('tiny');
    expect(secrets).not.toContain('short');
    expect(secrets).not.toContain('MY_CUSTOM_VAR');
    expect(secrets).not.toContain('/home/not-a-secret');
    const lengths = secrets.map((s) => s.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => b - a));
  });

  it('includes OPENAI_API_KEY once whether it came from the env or the file', () => {
    const { home } = homeWithConfig('');
    const env = { OPENAI_API_KEY: 'sk-env-key-456' };
    const { config } = loadConfig({ home, env });
    expect(secretValues(config, env)).toEqual(['sk-env-key-456']);
  });

  it('collects gateway.console.token (the console login secret)', () => {
    const { home } = homeWithConfig(`
gateway:
  console:
    token: console-login-secret-1
`);
    const { config } = loadConfig({ home, env: {} });
    expect(config.gateway.console.token).toBe('console-login-secret-1');
    expect(secretValues(config, {})).toContain('console-login-secret-1');
  });
});
