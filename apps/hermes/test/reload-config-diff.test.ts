// What a reload applies and what it leaves for a restart, from the difference of two configs.
import { defaultConfig } from '@hermes/config';
import { describe, expect, it } from 'vitest';
import { changedEnvNames, changedKeys, reloads, restartKeys } from '../src/reload/config-diff.js';

describe('config-diff', () => {
  it('lists the changed leaves; an array is one leaf', () => {
    const before = defaultConfig();
    const after = {
      ...before,
      plugins: { ...before.plugins, enabled: ['calculator'] },
      gateway: { ...before.gateway, port: 9000, platforms: { telegram: { mode: 'webhook' } } },
      agent: { ...before.agent, system_prompt: 'Be brief.' },
    };
    // a block that was not there is one leaf
    expect(changedKeys(before, after)).toEqual([
      'agent.system_prompt',
      'gateway.platforms.telegram',
      'gateway.port',
      'plugins.enabled',
    ]);
    expect(changedKeys(before, before)).toEqual([]);
  });

  it('reloads plugins, hooks, skills, MCP servers and the turn settings; everything else needs a restart', () => {
    for (const key of [
      'plugins.enabled',
      'hooks.pre_tool_call',
      'skills.disabled',
      'mcp_servers.docs.url',
      'agent.toolsets',
      'model.temperature',
      'context.threshold',
    ]) {
      expect(reloads(key), key).toBe(true);
    }
    for (const key of [
      'gateway.port',
      'gateway.host',
      'state.backend',
      'model.default',
      'model.api_key',
      'plugins.hook_timeout_ms',
      'agent.api_max_retries',
    ]) {
      expect(reloads(key), key).toBe(false);
    }
    expect(
      restartKeys([
        'gateway.platforms.telegram.mode',
        'gateway.platforms.telegram.webhook_url',
        'gateway.port',
        'agent.toolsets',
      ]),
    ).toEqual(['gateway.platforms.telegram', 'gateway.port']);
  });

  it('names the .env variables that changed, never their values', () => {
    expect(changedEnvNames({ A: '1', B: '2' }, { A: '1', B: '3', C: 'x' })).toEqual(['B', 'C']);
  });
});
