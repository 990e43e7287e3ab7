// Users apart in the store, on both backends: identity links (ownerOf, link, groups moved whole),
// /link codes (one use, expiry), sessions opened for a user, session_search by owner (linked
// identities included), memory snapshots per user, sessions of before identities claimed.
import { expect, it } from 'vitest';
import { fakeClock } from '../temp-dir.js';
import { forEachBackend } from './backends.js';

forEachBackend((open) => {
  it('links identities to one owner: ownerOf, identitiesOf, a linked group moves whole, linking twice changes nothing', async () => {
    const store = await open();
    const links = store.identityLinks;
    expect(await links.ownerOf('telegram:111')).toBe('telegram:111');
    expect(await links.link('telegram:111', 'slack:U123')).toBe('telegram:111');
    expect(await links.ownerOf('slack:U123')).toBe('telegram:111');
    expect(await links.link('slack:U123', 'telegram:111')).toBe('telegram:111'); // already one user
    // discord:9 owns web:abc; discord:9 joins telegram:111: web:abc follows, nobody keeps an owner of its own
    await links.link('discord:9', 'web:abc');
    expect(await links.link('slack:U123', 'discord:9')).toBe('telegram:111');
    expect(await links.ownerOf('web:abc')).toBe('telegram:111');
    expect(await links.ownerOf('discord:9')).toBe('telegram:111');
    expect((await links.identitiesOf('telegram:111')).sort()).toEqual(
      ['discord:9', 'slack:U123', 'telegram:111', 'web:abc'].sort(),
    );
    expect(await links.ownerOf('telegram:222')).toBe('telegram:222');
  });

  it('a /link code is taken once and not after it expired', async () => {
    const clock = fakeClock();
    const store = await open({ now: clock.now });
    const links = store.identityLinks;
    await links.putCode('ABCD2345', 'telegram:111', clock.t + 600_000);
    expect(await links.takeCode('ABCD2345')).toBe('telegram:111');
    expect(await links.takeCode('ABCD2345')).toBeUndefined();
    await links.putCode('OLDCODE2', 'telegram:111', clock.t + 600_000);
    clock.t += 600_001;
    expect(await links.takeCode('OLDCODE2')).toBeUndefined();
    expect(await links.takeCode('NEVER123')).toBeUndefined();
  });

  it("session_search with an owner answers from that user's sessions and their linked identities' only", async () => {
    const store = await open();
    const alice = await store.sessions.create({
      key: 'telegram:111:dm',
      platform: 'telegram',
      userKey: 'telegram:111',
    });
    const bob = await store.sessions.create({ key: 'telegram:222:dm', platform: 'telegram', userKey: 'telegram:222' });
    const aliceSlack = await store.sessions.create({ key: 'slack:D1:dm', platform: 'slack', userKey: 'slack:U123' });
    expect(alice.userKey).toBe('telegram:111');
    expect((await store.sessions.get(bob.id))?.userKey).toBe('telegram:222');
    await store.transcripts.append(alice.id, [{ role: 'user', content: 'my secret password hint is tulip' }]);
    await store.transcripts.append(bob.id, [{ role: 'user', content: 'tulip season is spring' }]);
    await store.transcripts.append(aliceSlack.id, [{ role: 'user', content: 'tulip bulbs from slack' }]);
    const ids = async (owner: string) =>
      (await store.sessionSearch.search('tulip', { limit: 10, owner })).map((h) => h.sessionId).sort();
    expect(await ids('telegram:222')).toEqual([bob.id]);
    expect(await ids('telegram:111')).toEqual([alice.id]);
    await store.identityLinks.link('telegram:111', 'slack:U123');
    expect(await ids('telegram:111')).toEqual([alice.id, aliceSlack.id].sort());
    expect(await ids('slack:U123')).toEqual([]); // a linked identity's sessions are its owner's now
    // without an owner (the store's own callers, e.g. the console) every session is searched
    expect((await store.sessionSearch.search('tulip', { limit: 10 })).length).toBe(3);
  });

  it('unlink: a linked identity is its own owner again; an owner lets go of all; not linked: nothing', async () => {
    const store = await open();
    await store.identityLinks.link('telegram:1', 'slack:U1');
    await store.identityLinks.link('telegram:1', 'discord:9');
    expect(await store.identityLinks.unlink('slack:U1')).toEqual(['slack:U1']);
    expect(await store.identityLinks.ownerOf('slack:U1')).toBe('slack:U1');
    expect(await store.identityLinks.ownerOf('discord:9')).toBe('telegram:1');
    await store.identityLinks.link('telegram:1', 'slack:U1');
    expect(await store.identityLinks.unlink('telegram:1')).toEqual(['discord:9', 'slack:U1']);
    expect(await store.identityLinks.identitiesOf('telegram:1')).toEqual(['telegram:1']);
    expect(await store.identityLinks.unlink('telegram:1')).toEqual([]);
  });

  it('memory snapshots are per session and user; sessions of before identities are claimed by users.owner', async () => {
    const store = await open();
    const group = await store.sessions.create({
      key: 'telegram:-5:group',
      platform: 'telegram',
      userKey: 'telegram:111',
    });
    expect(await store.memorySnapshots.put(group.id, 'builtin', 'alice block', 'telegram:111')).toBe(true);
    expect(await store.memorySnapshots.get(group.id, 'telegram:111')).toBe('alice block');
    expect(await store.memorySnapshots.get(group.id, 'telegram:222')).toBeUndefined();
    expect(await store.memorySnapshots.get(group.id)).toBeUndefined();
    const old = await store.sessions.create({ key: 'cli:chat', platform: 'cli' });
    expect(old.userKey).toBeNull();
    expect(await store.sessions.claimUnowned('cli:local')).toBe(1);
    expect((await store.sessions.get(old.id))?.userKey).toBe('cli:local');
    expect((await store.sessions.get(group.id))?.userKey).toBe('telegram:111');
    expect(await store.sessions.claimUnowned('cli:local')).toBe(0);
  });
});
