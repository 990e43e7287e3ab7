// session_search: arguments checked, the asking session left out, limit capped, hits shaped for the model.
import type { ToolContext } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { createSessionSearchTool, SESSION_SEARCH_MAX_LIMIT } from '../../src/index.js';

describe('session_search tool', () => {
  it('searches with the limit, leaving the current session out, and answers ids, dates and snippets', async () => {
    const calls: unknown[] = [];
    const tool = createSessionSearchTool({
      search: (query, options) => {
        calls.push({ query, options });
        return [
          {
            sessionId: 'sess_a',
            platform: 'telegram',
            title: null,
            sessionCreatedAt: Date.UTC(2026, 0, 2),
            at: Date.UTC(2026, 0, 3),
            role: 'user',
            snippet: 'my [zebra] is called',
          },
        ];
      },
    });
    const result = await tool.handler({ query: 'zebra', limit: 500 }, {
      sessionId: 'sess_now',
      user: { key: 'telegram:1', tier: 'user' },
    } as ToolContext);
    expect(calls).toEqual([
      {
        query: 'zebra',
        options: { limit: SESSION_SEARCH_MAX_LIMIT, excludeSessionId: 'sess_now', owner: 'telegram:1' },
      },
    ]);
    expect(result).toEqual({
      success: true,
      query: 'zebra',
      results: [
        {
          session_id: 'sess_a',
          platform: 'telegram',
          session_started: '2026-01-02T00:00:00.000Z',
          date: '2026-01-03T00:00:00.000Z',
          role: 'user',
          snippet: 'my [zebra] is called',
        },
      ],
    });
  });

  it('bad arguments are named; no hit says so', async () => {
    const tool = createSessionSearchTool({ search: () => [] });
    const ctx = { sessionId: 's', user: { key: 'cli:local', tier: 'admin' } } as ToolContext;
    expect(await tool.handler({}, ctx)).toMatchObject({ success: false, error: expect.stringContaining('"query"') });
    expect(await tool.handler({ query: 'x', limit: 0 }, ctx)).toMatchObject({
      success: false,
      error: expect.stringContaining('"limit"'),
    });
    expect(await tool.handler({ query: 'x' }, ctx)).toMatchObject({
      success: true,
      results: [],
      note: expect.any(String),
    });
    // users apart: a turn without a user searches nothing
    expect(await tool.handler({ query: 'x' }, { sessionId: 's' } as ToolContext)).toMatchObject({
      success: false,
      error: expect.stringContaining('no user identity'),
    });
  });

  it('an async source (PostgreSQL) is awaited', async () => {
    const tool = createSessionSearchTool({
      search: async () => [
        {
          sessionId: 'sess_b',
          platform: 'cli',
          title: 't',
          sessionCreatedAt: 0,
          at: 0,
          role: 'assistant',
          snippet: 's',
        },
      ],
    });
    const result = (await tool.handler({ query: 'x' }, {
      sessionId: '',
      user: { key: 'cli:local', tier: 'admin' },
    } as ToolContext)) as {
      results: { session_id: string }[];
    };
    expect(result.results.map((r) => r.session_id)).toEqual(['sess_b']);
  });
});
