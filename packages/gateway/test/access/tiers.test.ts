// Who is admin (docs/security.md "Tiers and budgets"), which commands a tier may run, which tools
// it gets, and what a quick command stands for.
import type { ToolDefinition } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { commandRefusal } from '../../src/access/command-access.js';
import { quickCommand } from '../../src/access/quick-commands.js';
import { type TierPorts, tierOf } from '../../src/access/tiers.js';
import { tierToolAccess } from '../../src/access/tool-access.js';

/** the store's answer: the earliest approval (pairing.test.ts checks the store's own order) */
const approved = (list: { platform: string; userId: string; approvedAt: number }[]) => ({
  firstApproved: async () => {
    const first = [...list].sort((a, b) => a.approvedAt - b.approvedAt)[0];
    return first === undefined ? undefined : { ...first, userName: null };
  },
});
const ports = (over: Partial<TierPorts> = {}): TierPorts => ({
  env: {},
  admins: [],
  pairing: approved([]),
  ...over,
});

describe('tierOf', () => {
  it('configured admins: gateway.admins, GATEWAY_ADMIN_USERS (identity keys), <PLATFORM>_ADMIN_USERS (ids)', async () => {
    const p = ports({
      admins: ['slack:U1'],
      env: { GATEWAY_ADMIN_USERS: 'discord:9', TELEGRAM_ADMIN_USERS: '5, 6', TELEGRAM_ALLOWED_USERS: '1,5,6,7' },
    });
    expect(await tierOf(p, 'slack', 'U1')).toBe('admin');
    expect(await tierOf(p, 'discord', '9')).toBe('admin');
    expect(await tierOf(p, 'telegram', '6')).toBe('admin');
    // an admin list is set: the first allowed id is no longer the owner
    expect(await tierOf(p, 'telegram', '1')).toBe('user');
    // an id of another platform's list does not count here
    expect(await tierOf(p, 'slack', '5')).toBe('user');
  });

  it('none configured: the first id of the platform allowlist (or GATEWAY_ALLOWED_USERS) is the owner', async () => {
    const p = ports({ env: { TELEGRAM_ALLOWED_USERS: '42,43', GATEWAY_ALLOWED_USERS: 'ops' } });
    expect(await tierOf(p, 'telegram', '42')).toBe('admin');
    expect(await tierOf(p, 'telegram', '43')).toBe('user');
    expect(await tierOf(p, 'slack', 'ops')).toBe('admin');
    expect(await tierOf(ports({ env: { TELEGRAM_ALLOWED_USERS: '*' } }), 'telegram', '42')).toBe('user');
  });

  it('no allowlist naming anyone: the first user approved by pairing is the owner', async () => {
    const pairing = approved([
      { platform: 'telegram', userId: '8', approvedAt: 2_000 },
      { platform: 'slack', userId: 'U7', approvedAt: 1_000 },
    ]);
    expect(await tierOf(ports({ pairing }), 'slack', 'U7')).toBe('admin');
    expect(await tierOf(ports({ pairing }), 'telegram', '8')).toBe('user');
    expect(await tierOf(ports(), 'telegram', '8')).toBe('user');
  });

  it('the operator surfaces are admins: the API, the console operator, cron, hooks, the CLI', async () => {
    const p = ports({ env: { TELEGRAM_ADMIN_USERS: '1' } });
    for (const [platform, id] of [
      ['api', 'api'],
      ['web', 'console:operator'],
      ['cron', 'telegram:5'],
      ['gateway', 'hook:x'],
      ['cli', 'local'],
    ] as const)
      expect(await tierOf(p, platform, id)).toBe('admin');
    // a web chat visitor is not
    expect(await tierOf(p, 'web', 'b-123')).toBe('user');
  });
});

describe('commands, tools and quick commands per tier', () => {
  it('admin-only commands are refused to users with why; everything else runs', () => {
    expect(commandRefusal('model', 'user')).toBe(
      "/model is for admins of this bot (it switches this chat's model); ask the bot's owner.",
    );
    expect(commandRefusal('sethome', 'user')).toMatch(/^\/sethome is for admins/);
    expect(commandRefusal('plugins', 'user')).toMatch(/^\/plugins is for admins/);
    for (const name of ['help', 'new', 'stop', 'status', 'usage', 'approve', 'deny', 'queue'])
      expect(commandRefusal(name, 'user')).toBeNull();
    expect(commandRefusal('model', 'admin')).toBeNull();
  });

  it("a tier's toolsets and excluded tools filter the turn's tools", () => {
    const tool = (name: string, toolset: string) => ({ name, toolset }) as ToolDefinition;
    const tools = [
      tool('terminal', 'terminal'),
      tool('read_file', 'file'),
      tool('write_file', 'file'),
      tool('web_search', 'web'),
    ];
    const access = tierToolAccess({
      tiers: {
        admin: { toolsets: ['*'], excludeTools: [], excludeCommands: [], limits: {} },
        user: { toolsets: ['file', 'web_search'], excludeTools: ['write_file'], excludeCommands: [], limits: {} },
      },
    });
    expect(access(tools, { key: 'telegram:1', tier: 'admin' }).map((t) => t.name)).toEqual([
      'terminal',
      'read_file',
      'write_file',
      'web_search',
    ]);
    expect(access(tools, { key: 'telegram:2', tier: 'user' }).map((t) => t.name)).toEqual(['read_file', 'web_search']);
  });

  it('a quick command stands for a command (arguments appended) or a text; unknown names are none', () => {
    const commands = { gpt: '/model openai:gpt-4o', m: '/model', news: 'Summarize the news' };
    expect(quickCommand(commands, 'gpt', '')).toEqual({ kind: 'command', name: 'model', args: 'openai:gpt-4o' });
    expect(quickCommand(commands, 'm', 'x:y')).toEqual({ kind: 'command', name: 'model', args: 'x:y' });
    expect(quickCommand(commands, 'news', 'from Berlin')).toEqual({
      kind: 'text',
      text: 'Summarize the news from Berlin',
    });
    expect(quickCommand(commands, 'toString', '')).toBeNull();
    expect(quickCommand(commands, 'other', '')).toBeNull();
  });
});
