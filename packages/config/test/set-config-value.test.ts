import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig, setConfigValue } from '@hermes/config';
import { ERROR_CODES } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { homeWithConfig, tempHome, thrown } from './helpers.js';

const COMMENTED = `# Hermes settings
model:
  default: gpt-4o # the model we use
  # timeout in seconds
  timeout_s: 120
agent:
  toolsets: ['*']
`;

function setError(home: string, key: string, value: string): ConfigError {
  const error = thrown(() => setConfigValue({ home, key, value }));
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe('setConfigValue', () => {
  it('creates the home, the file (owner-only) and the value when missing', () => {
    const home = join(tempHome(), 'new', 'home');
    const result = setConfigValue({ home, key: 'model.default', value: 'llama3' });
    expect(result).toMatchObject({
      path: join(home, 'config.yaml'),
      key: 'model.default',
      value: 'llama3',
      created: true,
    });
    expect(readFileSync(result.path, 'utf8')).toBe('model:\n  default: llama3\n');
    expect(statSync(result.path).mode & 0o777).toBe(0o600);
    expect(loadConfig({ home, env: {} }).config.model.default).toBe('llama3');
  });

  it('keeps comments and other keys when editing', () => {
    const { home, file } = homeWithConfig(COMMENTED);
    setConfigValue({ home, key: 'model.default', value: 'claude' });
    setConfigValue({ home, key: 'model.timeout_s', value: '30' });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('# Hermes settings');
    expect(text).toContain('default: claude # the model we use');
    expect(text).toContain('# timeout in seconds\n  timeout_s: 30\n');
    setConfigValue({ home, key: 'agent.toolsets', value: 'web,files' });
    expect(readFileSync(file, 'utf8')).toContain('toolsets: [ web, files ]');
    expect(loadConfig({ home, env: {} }).config.agent.toolsets).toEqual(['web', 'files']);
    expect(readdirSync(home)).toEqual(['config.yaml']);
  });

  it('coerces by the schema type: numbers, booleans, lists, enums, mappings', () => {
    const { home } = homeWithConfig(COMMENTED);
    const cases: [string, string, unknown][] = [
      ['gateway.port', '9001', 9001],
      ['display.streaming', 'yes', true],
      ['hooks_auto_accept', 'false', false],
      ['agent.toolsets', 'web, terminal ,files', ['web', 'terminal', 'files']],
      ['plugins.enabled', '["a","b"]', ['a', 'b']],
      ['plugins.disabled', '', []],
      ['display.busy_input_mode', 'steer', 'steer'],
      ['model.default', '12345', '12345'],
      [
        'hooks.pre_tool_call',
        '[{"command":"echo hi","matcher":"terminal"}]',
        [{ command: 'echo hi', matcher: 'terminal' }],
      ],
    ];
    for (const [key, value, expected] of cases) expect(setConfigValue({ home, key, value }).value).toEqual(expected);
    const { config } = loadConfig({ home, env: {} });
    expect(config.gateway.port).toBe(9001);
    expect(config.display).toMatchObject({ streaming: true, busy_input_mode: 'steer', stream_interval_ms: 1000 });
    expect(config.hooks_auto_accept).toBe(false);
    expect(config.agent.toolsets).toEqual(['web', 'terminal', 'files']);
    expect(config.plugins).toMatchObject({ enabled: ['a', 'b'], disabled: [] });
    expect(config.model.default).toBe('12345');
    expect(config.hooks.pre_tool_call).toEqual([{ command: 'echo hi', matcher: 'terminal' }]);
  });

  it('a string-or-list key (model.fallback): a JSON list is the list, else the string; the value keeps its comment', () => {
    const { home, file } = homeWithConfig('model:\n  fallback: ollama:llama3.2 # the spare one\n');
    expect(setConfigValue({ home, key: 'model.fallback', value: '["a:b", "c:d"]' }).value).toEqual(['a:b', 'c:d']);
    expect(readFileSync(file, 'utf8')).toBe('model:\n  fallback:\n    # the spare one\n    - a:b\n    - c:d\n');
    expect(loadConfig({ home, env: {} }).config.model.fallback).toEqual(['a:b', 'c:d']);
    expect(setConfigValue({ home, key: 'model.fallback', value: 'a:b,c' }).value).toBe('a:b,c');
    expect(readFileSync(file, 'utf8')).toBe('model:\n  fallback: a:b,c # the spare one\n');
  });

  it('sets keys inside records and loose platform settings, and fills an empty section', () => {
    const { home } = homeWithConfig('model:\ngateway:\n');
    setConfigValue({ home, key: 'gateway.platforms.telegram.mode', value: 'webhook' });
    setConfigValue({ home, key: 'gateway.platforms.telegram.enabled', value: 'false' });
    setConfigValue({ home, key: 'model.api_key', value: 'k' });
    const { config, warnings } = loadConfig({ home, env: {} });
    expect(config.gateway.platforms.telegram).toEqual({ mode: 'webhook', enabled: false });
    expect(config.model.api_key).toBe('k');
    expect(warnings).toEqual([]);
  });

  it('rejects a value of the wrong type without touching the file', () => {
    const { home, file } = homeWithConfig(COMMENTED);
    const error = setError(home, 'model.timeout_s', 'fast');
    expect(error.message).toBe('model.timeout_s: expected number, got string "fast"');
    expect(error.code).toBe(ERROR_CODES.CONFIG_TYPE);
    expect(readFileSync(file, 'utf8')).toBe(COMMENTED);
  });

  it('rejects an out-of-range value with the file:line style, file untouched', () => {
    const { home, file } = homeWithConfig(COMMENTED);
    const error = setError(home, 'session_reset.at_hour', '24');
    expect(error.message).toBe(`${file}:9: session_reset.at_hour: expected integer 0-23, got number 24`);
    expect(readFileSync(file, 'utf8')).toBe(COMMENTED);
    expect(readdirSync(home)).toEqual(['config.yaml']);
  });

  it('rejects an unknown key, naming the valid keys at that level', () => {
    const home = tempHome();
    const error = setError(home, 'model.defualt', 'x');
    expect(error.code).toBe(ERROR_CODES.CONFIG_KEY);
    expect(error.message).toBe(
      'unknown key "defualt" in model (valid keys: default, base_url, api_key, timeout_s, connect_timeout_s, idle_timeout_s, retry_budget_s, max_tokens, temperature, vision, provider, fallback, context_length). Did you mean "default"?',
    );
    expect(setError(home, 'modle.default', 'x').message).toMatch(
      /^unknown key "modle" at top level \(valid keys: model, agent, /,
    );
    expect(setError(home, 'model.default.x', 'y').message).toBe('model.default is a string and has no key "x"');
    expect(setError(home, 'model..default', 'y').code).toBe(ERROR_CODES.CONFIG_KEY);
    expect(existsSync(join(home, 'config.yaml'))).toBe(false);
  });

  it('refuses to edit a file with a YAML syntax error', () => {
    const broken = 'model: {default: x\n';
    const { home, file } = homeWithConfig(broken);
    expect(setError(home, 'model.default', 'y').code).toBe(ERROR_CODES.CONFIG_SYNTAX);
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });

  it('keeps the mode of an existing file', () => {
    const { home, file } = homeWithConfig('model:\n  default: a\n');
    chmodSync(file, 0o640);
    setConfigValue({ home, key: 'model.default', value: 'b' });
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });
});
