// The session-key space: the strings stored in state.db must not change between releases.
import { describe, expect, it } from 'vitest';
import { platformOfKey, SESSION_KEYS, sessionKeyFor } from '../src/session-keys.js';

const source = { platform: 'telegram', chatId: '42', userId: '7' };

describe('session keys', () => {
  it('chats: a DM, a group per user or shared, a thread shared', () => {
    expect(sessionKeyFor({ ...source, chatType: 'dm' })).toBe('telegram:42:dm');
    expect(sessionKeyFor({ ...source, chatType: 'group' })).toBe('telegram:42:group:7');
    expect(sessionKeyFor({ ...source, chatType: 'group' }, 'shared')).toBe('telegram:42:group');
    expect(sessionKeyFor({ ...source, chatType: 'thread', threadId: '9' })).toBe('telegram:42:thread:9');
    expect(sessionKeyFor({ ...source, platform: 'web', chatId: 'b1', chatType: 'dm' })).toBe('web:b1:dm');
  });

  it('the other surfaces keep the strings earlier releases stored', () => {
    expect(SESSION_KEYS.api('alice')).toBe('api:alice');
    expect(SESSION_KEYS.apiResponse('resp_1')).toBe('api:response:resp_1');
    expect(SESSION_KEYS.apiStateless('r1')).toBe('api-stateless-r1');
    expect(SESSION_KEYS.cron('3f9c2a1b')).toBe('cron:3f9c2a1b');
    expect(SESSION_KEYS.hookRun('boot-md', 'k2')).toBe('hook-boot-md-k2');
    expect(SESSION_KEYS.hookApproval('boot-md')).toBe('hook:boot-md');
    expect([SESSION_KEYS.cliChat, SESSION_KEYS.cliOneShot]).toEqual(['cli:chat', 'cli:oneshot']);
  });

  it('names the platform of a key', () => {
    expect(platformOfKey('telegram:42:dm')).toBe('telegram');
    expect(platformOfKey(SESSION_KEYS.api('alice'))).toBe('api');
    expect(platformOfKey(SESSION_KEYS.apiStateless('r1'))).toBe('api');
    expect(platformOfKey(SESSION_KEYS.cron('j'))).toBe('cron');
    expect(platformOfKey(SESSION_KEYS.hookRun('h', '1'))).toBe('gateway');
  });
});
