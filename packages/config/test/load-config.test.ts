import { ConfigError, defaultConfig, loadConfig } from '@hermes/config';
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { homeWithConfig, tempHome, thrown } from './helpers.js';

function loadError(yaml: string): { error: ConfigError; file: string } {
  const { home, file } = homeWithConfig(yaml);
  const error = thrown(() => loadConfig({ home, env: {} }));
  expect(error).toBeInstanceOf(ConfigError);
  return { error: error as ConfigError, file };
}

describe('loadConfig: defaults', () => {
  it('uses the documented defaults when config.yaml is missing', () => {
    const home = tempHome();
    const { config, warnings, exists, path } = loadConfig({ home, env: {} });
    expect(exists).toBe(false);
    expect(path).toBe(`${home}/config.yaml`);
    expect(warnings).toEqual([]);
    expect(config.model).toEqual({
      default: '',
      base_url: 'https://api.openai.com/v1',
      api_key: '',
      timeout_s: 50,
      connect_timeout_s: 10,
      idle_timeout_s: 30,
      retry_budget_s: 55,
      vision: 'auto',
      provider: 'custom',
    });
    expect(config.agent).toEqual({
      max_iterations: 30,
      api_max_retries: 3,
      toolsets: ['*'],
      tool_descriptions: 'auto',
      model_toolsets: {},
      tool_timeout_s: 300,
      max_parallel_children: 3,
      child_max_iterations: 20,
      child_timeout_s: 240,
      clarify_timeout_s: 180,
    });
    expect(config.terminal).toEqual({ timeout_s: 60, max_output_chars: 50_000, dangerous_patterns_extra: [] });
    expect(config.logging).toEqual({ level: 'info', redact: [] });
    expect(config.plugins).toEqual({ enabled: [], disabled: [], hook_timeout_ms: 10_000 });
    expect(config.hooks).toEqual({});
    expect(config.hooks_auto_accept).toBe(false);
    expect(config.display).toEqual({
      busy_input_mode: 'interrupt',
      streaming: false,
      stream_interval_ms: 1000,
      reactions: false,
      tool_progress: false,
      runtime_metadata_footer: false,
    });
    expect(config.session_reset).toEqual({ mode: 'none', idle_minutes: 1440, at_hour: 4 });
    expect(config.gateway).toEqual({
      identity_links: [],
      admins: [],
      host: '127.0.0.1',
      port: 8642,
      drain_timeout_s: 30,
      max_concurrent_runs: 8,
      free_response_chats: [],
      group_context_messages: 20,
      channel_prompts: {},
      channel_toolsets: {},
      channel_skills: {},
      group_sessions: 'per_user',
      hook_timeout_s: 30,
      allowed_hosts: [],
      cors_origins: [],
      max_connections: 256,
      request_timeout_s: 30,
      max_streams: 64,
      max_streams_per_client: 8,
      platforms: {},
      batch_ms: 800,
      cluster: { failover_s: 10 },
      console: {},
    });
    expect(config.approvals).toEqual({ timeout_s: 120 });
    expect(config.web).toEqual({
      timeout_s: 30,
      crawl_timeout_s: 120,
      max_page_bytes: 5_000_000,
      max_content_chars: 20_000,
    });
    expect(config.security).toEqual({ allow_private_urls: false, allow_lazy_installs: false });
    expect(config.tools).toEqual({
      terminal: { backend: 'local', env_passthrough: [], network: false },
      browser: { idle_timeout_s: 300, timeout_s: 30 },
    });
    expect(config.state).toEqual({ backend: 'sqlite' });
    expect(config.media).toEqual({ max_bytes: 20 * 1024 * 1024, cache_days: 7, daily_upload_mb: 200 });
    expect(config.stt).toEqual({ provider: 'openai', model: 'whisper-1', timeout_s: 60 });
    expect(config).toEqual(defaultConfig());
  });

  it.each([
    ['an empty file', ''],
    ['a null document', 'null\n'],
    ['only comments', '# nothing here\n# model:\n#   default: x\n'],
    ['empty sections', 'model:\ngateway:\n  platforms:\nhooks:\n'],
  ])('treats %s as defaults', (_name, yaml) => {
    const { home } = homeWithConfig(yaml);
    const { config, exists, warnings } = loadConfig({ home, env: {} });
    expect(exists).toBe(true);
    expect(warnings).toEqual([]);
    expect(config).toEqual(defaultConfig());
  });

  it('reads every section from the file', () => {
    const { home } = homeWithConfig(`
model:
  default: llama3
  base_url: http://127.0.0.1:11434/v1
  timeout_s: 30.5
  max_tokens: 2048
  temperature: 0.2
agent:
  max_iterations: 5
  toolsets: [web, terminal]
terminal:
  dangerous_patterns_extra: ['\\bshutdown\\b']
logging:
  level: debug
hooks:
  pre_tool_call:
    - matcher: terminal
      command: ~/.hermes/hooks/check.sh
      timeout: 10
      future_field: ignored
hooks_auto_accept: true
display:
  busy_input_mode: queue
session_reset:
  mode: daily
  at_hour: 0
gateway:
  port: 9000
  platforms:
    telegram:
      enabled: false
      mode: webhook
      webhook_url: https://example.org/telegram/webhook
web:
  search_backend: searxng
security:
  allow_private_urls: true
`);
    const { config, warnings } = loadConfig({ home, env: {} });
    expect(warnings).toEqual([]);
    expect(config.model).toMatchObject({ default: 'llama3', timeout_s: 30.5, max_tokens: 2048, temperature: 0.2 });
    expect(config.agent.toolsets).toEqual(['web', 'terminal']);
    expect(config.agent.max_iterations).toBe(5);
    expect(config.terminal.dangerous_patterns_extra).toEqual(['\\bshutdown\\b']);
    expect(config.logging.level).toBe('debug');
    expect(config.hooks).toEqual({
      pre_tool_call: [{ matcher: 'terminal', command: '~/.hermes/hooks/check.sh', timeout: 10 }],
    });
    expect(config.hooks_auto_accept).toBe(true);
    expect(config.display.busy_input_mode).toBe('queue');
    expect(config.session_reset).toEqual({ mode: 'daily', idle_minutes: 1440, at_hour: 0 });
    expect(config.gateway.port).toBe(9000);
    expect(config.gateway.platforms.telegram).toEqual({
      enabled: false,
      mode: 'webhook',
      webhook_url: 'https://example.org/telegram/webhook',
    });
    expect(config.web.search_backend).toBe('searxng');
    expect(config.security.allow_private_urls).toBe(true);
  });

  it('returns a deep-frozen object', () => {
    const { home } = homeWithConfig('gateway:\n  platforms:\n    slack: {enabled: true}\n');
    const { config } = loadConfig({ home, env: {} });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.agent.toolsets)).toBe(true);
    expect(Object.isFrozen(config.gateway.platforms.slack)).toBe(true);
    expect(() => {
      (config.model as { default: string }).default = 'changed';
    }).toThrow(TypeError);
    expect(() => (config.agent.toolsets as string[]).push('x')).toThrow(TypeError);
  });
});

describe('loadConfig: errors', () => {
  it('reports a wrong type as one line with the absolute file, line, key and expected type', () => {
    const { error, file } = loadError('# comment\nmodel:\n  default: gpt\n  timeout_s: fast\n');
    expect(error.message).toBe(`${file}:4: model.timeout_s: expected number, got string "fast"`);
    expect(error.message).not.toContain('\n');
    expect(error.code).toBe(ERROR_CODES.CONFIG_TYPE);
    expect(error).toBeInstanceOf(HermesError);
    expect(error).toMatchObject({ file, line: 4, key: 'model.timeout_s', expected: 'number' });
  });

  it('collects every type error; the message names the first and counts the rest', () => {
    const { error, file } = loadError(
      'agent:\n  toolsets: [web, 3]\nsession_reset:\n  at_hour: 25\ndisplay:\n  busy_input_mode: stear\n',
    );
    expect(error.issues.map((issue) => issue.message)).toEqual([
      `${file}:2: agent.toolsets[1]: expected string, got number 3`,
      `${file}:4: session_reset.at_hour: expected integer 0-23, got number 25`,
      `${file}:6: display.busy_input_mode: expected one of interrupt, queue, steer, got string "stear". Did you mean "steer"?`,
    ]);
    expect(error.message).toBe(`${error.issues[0]?.message} (and 2 more problems)`);
  });

  it('names the entry of a hook missing its command, and rejects invalid regexes', () => {
    const { error, file } = loadError(
      'hooks:\n  pre_tool_call:\n    - matcher: x\nterminal:\n  dangerous_patterns_extra: ["(unclosed"]\n',
    );
    expect(error.issues.map((issue) => issue.message)).toEqual([
      `${file}:3: hooks.pre_tool_call[0].command: expected non-empty string, got nothing (the key is missing)`,
      `${file}:5: terminal.dangerous_patterns_extra[0]: expected valid regular expression, got string "(unclosed"`,
    ]);
  });

  it('rejects an integer key given a fraction, and a section given a scalar', () => {
    const { error, file } = loadError('agent:\n  max_iterations: 2.5\ngateway: yes\n');
    expect(error.issues.map((issue) => issue.message)).toEqual([
      `${file}:2: agent.max_iterations: expected integer, got number 2.5`,
      `${file}:3: gateway: expected mapping, got string "yes"`,
    ]);
  });

  it('state.backend is sqlite or postgres', () => {
    const { error, file } = loadError('state:\n  backend: postgresql\n');
    expect(error.message).toBe(
      `${file}:2: state.backend: expected one of sqlite, postgres, got string "postgresql". Did you mean "postgres"?`,
    );
  });

  it('rejects a document that is not a mapping', () => {
    const { error, file } = loadError('- a\n- b\n');
    expect(error.message).toBe(`${file}:1: top level: expected mapping, got list`);
    expect(error.code).toBe(ERROR_CODES.CONFIG_TYPE);
  });

  it('reports YAML syntax errors with their line (CONFIG_SYNTAX)', () => {
    const { error, file } = loadError('model:\n  default: x\n bad_indent: 1\n  other: [unclosed\n');
    expect(error.code).toBe(ERROR_CODES.CONFIG_SYNTAX);
    expect(error.message).toMatch(new RegExp(`^${file}:3: YAML syntax error: \\S`));
    expect(error.message).not.toContain('\n');
    expect(error.line).toBe(3);
  });

  it('rejects an alias bomb instead of expanding it', () => {
    const row = (name: string, ref: string) => `${name}: &${name} [${Array(10).fill(`*${ref}`).join(', ')}]`;
    const yaml = ['x0: &x0 [lol, lol]', row('x1', 'x0'), row('x2', 'x1'), row('x3', 'x2'), row('x4', 'x3')].join('\n');
    const { error } = loadError(`${yaml}\n`);
    expect(error.code).toBe(ERROR_CODES.CONFIG_SYNTAX);
    expect(error.message).toContain('YAML error:');
  });

  it('rejects duplicate keys as a syntax error', () => {
    const { error } = loadError('model:\n  default: a\n  default: b\n');
    expect(error.code).toBe(ERROR_CODES.CONFIG_SYNTAX);
    expect(error.line).toBe(3);
  });
});

describe('loadConfig: warnings', () => {
  it('warns about unknown keys with their line and the valid keys, and still loads', () => {
    const { home, file } = homeWithConfig('model:\n  default: x\n  timout_s: 5\nmodle: y\n');
    const { config, warnings } = loadConfig({ home, env: {} });
    expect(config.model.default).toBe('x');
    expect(warnings.map((w) => w.message)).toEqual([
      `${file}:3: unknown key "timout_s" in model (valid keys: default, base_url, api_key, timeout_s, connect_timeout_s, idle_timeout_s, retry_budget_s, max_tokens, temperature, vision, provider, fallback, context_length). Did you mean "timeout_s"?`,
      `${file}:4: unknown key "modle" at top level (valid keys: model, agent, terminal, logging, plugins, hooks, hooks_auto_accept, display, session_reset, gateway, approvals, web, security, image_gen, tts, memory, users, tools, state, media, stt, context, auxiliary, skills, mcp_servers, cron, access, quick_commands). Did you mean "model"?`,
    ]);
    expect(warnings[1]).toMatchObject({ kind: 'unknown_key', key: 'modle', line: 4, suggestion: 'model' });
  });

  it('does not warn about extra keys of platforms or hook entries', () => {
    const { home } = homeWithConfig(
      'gateway:\n  platforms:\n    matrix:\n      homeserver: x\nhooks:\n  on_session_start:\n    - command: a\n      note: b\n',
    );
    expect(loadConfig({ home, env: {} }).warnings).toEqual([]);
  });

  it('warns about an unknown hook event, suggesting the closest one', () => {
    const { home, file } = homeWithConfig('hooks:\n  pre_tool_cal:\n    - command: echo hi\n  bogus_event: []\n');
    const { config, warnings } = loadConfig({ home, env: {} });
    expect(config.hooks.pre_tool_cal).toEqual([{ command: 'echo hi' }]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatchObject({ kind: 'unknown_hook_event', line: 2, key: 'hooks.pre_tool_cal' });
    expect(warnings[0]?.message).toMatch(
      new RegExp(
        `^${file}:2: unknown hook event "pre_tool_cal" in hooks \\(valid events: pre_tool_call, .*\\)\\. Did you mean "pre_tool_call"\\?$`,
      ),
    );
    expect(warnings[1]?.message).not.toContain('Did you mean');
  });
});
