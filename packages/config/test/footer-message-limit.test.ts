// display.runtime_metadata_footer and context.hard_message_limit in config.yaml: off by default, and a
// message limit that would leave nothing to summarize refused with the key, its line and the bound.
import { loadConfig } from '@hermes/config';
import { describe, expect, it } from 'vitest';
import { homeWithConfig } from './helpers.js';

function load(yaml: string) {
  const { home } = homeWithConfig(yaml);
  return loadConfig({ home, env: {} });
}

describe('display.runtime_metadata_footer and context.hard_message_limit', () => {
  it('are off by default', () => {
    const { config } = load('');
    expect(config.display.runtime_metadata_footer).toBe(false);
    expect(config.context.hard_message_limit).toBe(0);
  });

  it('a limit must leave something to summarize: more than protect_last_n + 2', () => {
    expect(load('context:\n  hard_message_limit: 400\n').config.context.hard_message_limit).toBe(400);
    expect(load('context:\n  protect_last_n: 4\n  hard_message_limit: 7\n').config.context.hard_message_limit).toBe(7);
    expect(() => load('context:\n  hard_message_limit: 22\n')).toThrow(
      ':2: context.hard_message_limit: expected 0 (no limit) or more than context.protect_last_n + 2 (22), got number 22',
    );
  });
});
