// mcp_servers in config.yaml: defaults, exactly one of command and url, server names, ${VAR} expansion.
import { ConfigError, envRefs, expandEnvRefs, loadConfig, renderConfig } from '@hermes/config';
import { describe, expect, it } from 'vitest';
import { homeWithConfig } from './helpers.js';

function load(yaml: string) {
  const { home } = homeWithConfig(yaml);
  return loadConfig({ home, env: {} });
}

describe('mcp_servers', () => {
  it('fills the defaults of a stdio and an HTTP server', () => {
    const { config, warnings } = load(`
mcp_servers:
  local:
    command: node
  remote:
    url: http://127.0.0.1:8080/mcp
`);
    expect(warnings).toEqual([]);
    expect(config.mcp_servers.local).toMatchObject({
      command: 'node',
      args: [],
      env: {},
      enabled: true,
      timeout_s: 60,
      connect_timeout_s: 30,
      tools: { exclude: [] },
    });
    expect(config.mcp_servers.remote).toMatchObject({ url: 'http://127.0.0.1:8080/mcp', headers: {} });
  });

  it.each([
    ['both command and url', '  x:\n    command: node\n    url: http://127.0.0.1:1/mcp\n'],
    ['neither command nor url', '  x:\n    args: [a]\n'],
  ])('refuses %s, naming the server', (_, body) => {
    expect(() => load(`mcp_servers:\n${body}`)).toThrow(/mcp_servers\.x.*either command \(stdio\) or url/s);
  });

  it('refuses a server name outside the tool-name charset', () => {
    expect(() => load('mcp_servers:\n  "my server":\n    command: node\n')).toThrow(ConfigError);
  });

  it('warns about an unknown key inside a server', () => {
    const { warnings } = load('mcp_servers:\n  x:\n    command: node\n    argz: [a]\n');
    expect(warnings.map((w) => w.message).join('\n')).toMatch(
      /:4: unknown key "argz" in mcp_servers\.x .*Did you mean "args"/,
    );
  });

  it('expands variable references and names an unset one with where it was', () => {
    expect(envRefs(`Bearer \${A} \${B_2}`)).toEqual(['A', 'B_2']);
    expect(expandEnvRefs(`Bearer \${TOKEN}`, { TOKEN: 'abc' }, 'h')).toBe('Bearer abc');
    expect(() => expandEnvRefs(`\${NOPE}`, {}, 'mcp_servers.x.env.K')).toThrow(
      `mcp_servers.x.env.K references \${NOPE}, which is not set`,
    );
  });

  it('hermes config show masks literal header values and shows variable references', () => {
    const { config } = load(`
mcp_servers:
  w:
    url: http://127.0.0.1:9/mcp
    headers:
      Authorization: Bearer literal-token-abcdef
      X-Ref: "Bearer \${REF_TOKEN}"
`);
    const text = renderConfig(config);
    expect(text).not.toContain('literal-token-abcdef');
    expect(text).toContain('Authorization: "***"');
    expect(text).toContain(`X-Ref: Bearer \${REF_TOKEN}`);
  });
});
