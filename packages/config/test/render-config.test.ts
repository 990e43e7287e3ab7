import { writeFileSync } from 'node:fs';
import { loadConfig, renderConfig } from '@hermes/config';
import { describe, expect, it } from 'vitest';
import { homeWithConfig } from './helpers.js';

const YAML = `
model:
  default: llama3
  api_key: sk-secret-value-1
gateway:
  platforms:
    telegram:
      webhook_secret: hook-secret
      mode: webhook
`;

describe('renderConfig', () => {
  it('masks secret-looking keys by default and shows the rest', () => {
    const { home } = homeWithConfig(YAML);
    const text = renderConfig(loadConfig({ home, env: {} }).config);
    expect(text).toContain('api_key: "***"');
    expect(text).toContain('webhook_secret: "***"');
    expect(text).toContain('default: llama3');
    expect(text).toContain('mode: webhook');
    expect(text).not.toContain('sk-secret-value-1');
    expect(text).not.toContain('hook-secret');
  });

  it('masks gateway.console.token', () => {
    const { home } = homeWithConfig('gateway:\n  console:\n    token: console-token-value-1\n');
    const text = renderConfig(loadConfig({ home, env: {} }).config);
    expect(text).not.toContain('console-token-value-1');
    expect(text).toMatch(/token: "?\*\*\*"?/);
  });

  it('leaves an empty key visible as empty', () => {
    const { home } = homeWithConfig('');
    expect(renderConfig(loadConfig({ home, env: {} }).config)).toContain('api_key: ""');
  });

  it('round-trips: the unredacted output loads back, without warnings, to the same config', () => {
    const { home, file } = homeWithConfig(YAML);
    const { config } = loadConfig({ home, env: {} });
    const text = renderConfig(config, { redactSecrets: false });
    expect(text).toContain('sk-secret-value-1');
    writeFileSync(file, text);
    const again = loadConfig({ home, env: {} });
    expect(again.warnings).toEqual([]);
    expect(again.config).toEqual(config);
  });
});
