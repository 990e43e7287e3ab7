// terminal commands get a scrubbed environment: PATH, HOME, LANG, TERM, LC_* and the names in
// tools.terminal.env_passthrough, nothing else of the gateway's (tokens, model keys, database
// URLs). Attack finding: `env` from terminal printed every gateway secret.
import { createTerminalTool, terminalEnv } from '@hermes/agent';
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, createFakeContext } from '../../packages/agent/test/tools/fake-tool-context.js';

const { context } = createFakeContext();

const gatewayEnv: NodeJS.ProcessEnv = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/home/op',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  TERM: 'xterm',
  TELEGRAM_BOT_TOKEN: 'tg-secret-123',
  OPENAI_API_KEY: 'sk-secret-456',
  DATABASE_URL: 'postgres://u:pw-789@db/x',
  SLACK_SIGNING_SECRET: 'slack-secret',
  HERMES_HOME: '/home/op/.hermes',
  NODE_OPTIONS: '--require /tmp/evil.js',
  GIT_AUTHOR_NAME: 'Op',
};

async function envOf(options: Parameters<typeof createTerminalTool>[0]): Promise<Record<string, string>> {
  const result = await callTool(createTerminalTool({ cwd: process.cwd(), ...options }), { command: 'env' }, context);
  expect(result.exit_code).toBe(0);
  const vars: Record<string, string> = {};
  for (const line of String(result.output).split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) vars[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return vars;
}

afterEach(() => {
  delete process.env.HERMES_TEST_LEAK_TOKEN;
});

describe('terminal environment', () => {
  it('passes only PATH, HOME, LANG, TERM and LC_* of the gateway environment', async () => {
    const vars = await envOf({ env: gatewayEnv });
    expect(vars).toMatchObject({
      PATH: gatewayEnv.PATH,
      HOME: '/home/op',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TERM: 'xterm',
    });
    for (const name of [
      'TELEGRAM_BOT_TOKEN',
      'OPENAI_API_KEY',
      'DATABASE_URL',
      'SLACK_SIGNING_SECRET',
      'HERMES_HOME',
      'NODE_OPTIONS',
      'GIT_AUTHOR_NAME',
    ]) {
      expect(vars[name], name).toBeUndefined();
    }
    // the shell itself adds a few (PWD, SHLVL, _); nothing else comes from the gateway
    const fromGateway = Object.keys(vars).filter((k) => k in gatewayEnv);
    expect(fromGateway.sort()).toEqual(['HOME', 'LANG', 'LC_ALL', 'PATH', 'TERM']);
    // and the mark operator-only commands refuse under (`hermes console url`)
    expect(vars.HERMES_AGENT_TERMINAL).toBe('1');
  });

  it('adds the names of tools.terminal.env_passthrough', async () => {
    const vars = await envOf({ env: gatewayEnv, envPassthrough: ['GIT_AUTHOR_NAME', 'NOT_SET_ANYWHERE'] });
    expect(vars.GIT_AUTHOR_NAME).toBe('Op');
    expect(vars.NOT_SET_ANYWHERE).toBeUndefined();
    expect(vars.OPENAI_API_KEY).toBeUndefined();
  });

  it('scrubs the real process environment when no env is given (the gateway case)', async () => {
    process.env.HERMES_TEST_LEAK_TOKEN = 'leak-me-please';
    const result = await callTool(
      createTerminalTool({ cwd: process.cwd() }),
      { command: 'env; echo "[$HERMES_TEST_LEAK_TOKEN]"' },
      context,
    );
    expect(String(result.output)).not.toContain('leak-me-please');
    expect(String(result.output)).toContain('[]');
  });

  it('gives a default PATH when the gateway has none', () => {
    expect(terminalEnv({ OPENAI_API_KEY: 'x' }).PATH).toMatch(/\/usr\/bin/);
    expect(terminalEnv({ OPENAI_API_KEY: 'x' }).OPENAI_API_KEY).toBeUndefined();
  });
});
