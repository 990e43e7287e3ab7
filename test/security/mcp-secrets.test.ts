// MCP server secrets: ${VAR} references in mcp_servers env and headers are filled from the environment and
// HERMES_HOME/.env; every header value, and env values with a credential name or a ${VAR}, are redacted
// everywhere (the server's stderr in the log included). (A stdio child not inheriting the daemon's environment:
// packages/agent/test/mcp/mcp-manager.test.ts.)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, secretValues } from '@hermes/config';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';

const SERVER = fileURLToPath(new URL('../fakes/mcp/server.mjs', import.meta.url));

describe('mcp_servers secrets', () => {
  it('header values and credential-named or referencing env values are secrets; ordinary env values are not', () => {
    const home = tempHome();
    writeFileSync(
      join(home, 'config.yaml'),
      `mcp_servers:
  web:
    url: http://127.0.0.1:9/mcp
    headers:
      Authorization: "Bearer \${WEB_MCP_TOKEN}"
      X-Literal: literal-header-secret-77
  local:
    command: node
    env:
      GITHUB_TOKEN: ghp-literal-token-value
      FROM_REF: "\${LOCAL_REF}"
      MODE: verbose-mode-value
`,
    );
    const env = { WEB_MCP_TOKEN: 'web-token-abcdef', LOCAL_REF: 'ref-value-123456' };
    const { config } = loadConfig({ home, env });
    const secrets = secretValues(config, env);
    for (const s of [
      'Bearer web-token-abcdef',
      'web-token-abcdef',
      'literal-header-secret-77',
      'ghp-literal-token-value',
      'ref-value-123456',
    ]) {
      expect(secrets).toContain(s);
    }
    expect(secrets).not.toContain('verbose-mode-value');
  });

  it("the server's stderr reaches the log, redacted", async () => {
    const home = tempHome();
    writeFileSync(join(home, '.env'), 'MCP_CHILD_SECRET=child-secret-from-dotenv-9\n');
    writeFileSync(
      join(home, 'config.yaml'),
      `mcp_servers:
  fake:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(SERVER)}]
    env:
      FAKE_MCP_STDERR: "token=\${MCP_CHILD_SECRET}"
`,
    );
    const r = await runHermes(['mcp', 'test', 'fake'], {
      env: { HERMES_HOME: home, OPENAI_API_KEY: 'sk-daemon-key-0123456789' },
    });
    expect(r.code, r.stderr).toBe(0);
    const log = readFileSync(join(home, 'logs', 'cli.log'), 'utf8');
    expect(log).toContain('fake mcp server started');
    expect(log).toMatch(/fake mcp server started \(pid \d+\) .*\[REDACTED\]/);
    expect(log).not.toContain('child-secret-from-dotenv-9');
    expect(r.stdout + r.stderr).not.toContain('child-secret-from-dotenv-9');
  });
});
