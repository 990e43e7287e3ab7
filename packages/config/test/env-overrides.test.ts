import { ConfigError, ENV_OVERRIDES, loadConfig } from '@hermes/config';
import { ERROR_CODES } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { homeWithConfig, thrown } from './helpers.js';

const FILE = `model:
  default: file-model
  base_url: http://file/v1
  api_key: file-key
logging:
  level: warn
gateway:
  host: 0.0.0.0
  port: 9000
`;

describe('env overrides', () => {
  it('lets each documented variable win over the file', () => {
    const { home } = homeWithConfig(FILE);
    const { config } = loadConfig({
      home,
      env: {
        HERMES_INFERENCE_MODEL: 'env-model',
        OPENAI_BASE_URL: 'http://env/v1',
        OPENAI_API_KEY: 'env-key',
        HERMES_LOG_LEVEL: 'DEBUG',
        HERMES_GATEWAY_HOST: '::1',
        HERMES_GATEWAY_PORT: '0',
      },
    });
    expect(config.model).toMatchObject({ default: 'env-model', base_url: 'http://env/v1', api_key: 'env-key' });
    expect(config.logging.level).toBe('debug');
    expect(config.gateway).toMatchObject({ host: '::1', port: 0 });
    expect(Object.isFrozen(config.gateway)).toBe(true);
    expect(ENV_OVERRIDES.map((o) => o.env)).toEqual([
      'HERMES_INFERENCE_MODEL',
      'OPENAI_BASE_URL',
      'OPENAI_API_KEY',
      'HERMES_LOG_LEVEL',
      'HERMES_GATEWAY_HOST',
      'HERMES_GATEWAY_PORT',
    ]);
  });

  it('ignores unset and empty variables', () => {
    const { home } = homeWithConfig(FILE);
    const { config } = loadConfig({ home, env: { OPENAI_API_KEY: '', HERMES_GATEWAY_PORT: '  ' } });
    expect(config.model.api_key).toBe('file-key');
    expect(config.gateway.port).toBe(9000);
  });

  it('applies over defaults when there is no file', () => {
    const { home } = homeWithConfig('');
    const { config } = loadConfig({ home, env: { HERMES_INFERENCE_MODEL: 'm' } });
    expect(config.model.default).toBe('m');
    expect(config.model.base_url).toBe('https://api.openai.com/v1');
  });

  it.each([
    ['HERMES_GATEWAY_PORT', 'http', 'gateway.port', 'expected integer, got string "http"'],
    ['HERMES_GATEWAY_PORT', '70000', 'gateway.port', 'expected integer 0-65535, got string "70000"'],
    [
      'HERMES_LOG_LEVEL',
      'loud',
      'logging.level',
      'expected one of trace, debug, info, warn, error, fatal, got string "loud"',
    ],
  ])('rejects an invalid %s=%s, naming the variable', (name, value, key, detail) => {
    const { home } = homeWithConfig('');
    const error = thrown(() => loadConfig({ home, env: { [name]: value } })) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.code).toBe(ERROR_CODES.CONFIG_TYPE);
    expect(error.message).toBe(`${name} (env override for ${key}): ${detail}`);
    expect(error.issues[0]).toMatchObject({ envVar: name, key, file: null, line: null });
  });
});
