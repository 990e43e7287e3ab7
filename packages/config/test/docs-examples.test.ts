import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@hermes/config';
import { describe, expect, it } from 'vitest';
import { homeWithConfig } from './helpers.js';

const DOCS = ['configuration.md', 'logging.md'];

function yamlBlocks(doc: string): string[] {
  const text = readFileSync(fileURLToPath(new URL(`../../../docs/${doc}`, import.meta.url)), 'utf8');
  return [...text.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
}

describe('docs examples', () => {
  it('has yaml examples to check', () => {
    expect(yamlBlocks('configuration.md').length).toBeGreaterThanOrEqual(3);
    expect(yamlBlocks('logging.md').length).toBeGreaterThanOrEqual(2);
  });

  for (const doc of DOCS) {
    it(`every yaml block of ${doc} loads without warnings`, () => {
      for (const block of yamlBlocks(doc)) {
        const { home } = homeWithConfig(block);
        const { warnings, config } = loadConfig({ home, env: {} });
        expect(warnings, block).toEqual([]);
        expect(config).toBeDefined();
      }
    });
  }

  it('the full example in configuration.md sets the documented defaults', () => {
    const [full] = yamlBlocks('configuration.md');
    const { home } = homeWithConfig(full ?? '');
    const { config } = loadConfig({ home, env: {} });
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
      cluster: { failover_s: 10, instance_id: 'gw-1' },
      console: {},
    });
    expect(config.tts).toEqual({
      provider: 'openai',
      model: 'gpt-4o-mini-tts',
      voice: 'alloy',
      format: 'opus',
      base_url: 'https://api.openai.com/v1',
      voice_answers: 'auto',
      max_chars: 4000,
      timeout_s: 30,
      providers: {},
    });
    expect(config.tools).toEqual({
      terminal: { backend: 'local', env_passthrough: [], network: false },
      browser: { idle_timeout_s: 300, timeout_s: 30 },
    });
    expect(config.state).toEqual({ backend: 'sqlite', retention_days: 90 });
    expect(config.agent.toolsets).toEqual(['*']);
    expect(config.session_reset).toEqual({ mode: 'none', idle_minutes: 1440, at_hour: 4 });
  });
});
