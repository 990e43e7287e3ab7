// Outbound media never sends HERMES_HOME's secrets, state or code, the user's keys or a process's
// /proc entry, however the path is written (symlinks and ".." resolved first); bad files get a
// note naming what was wrong; https URLs go through the SSRF guard.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSafeDownload } from '@hermes/agent';
import { safeIdentityName } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { type MediaSourceOptions, resolveMedia } from '../../packages/gateway/src/delivery/media/media-source.js';

function setup() {
  const root = mkdtempSync(join(tmpdir(), 'hermes-media-guard-'));
  const home = join(root, 'hermes');
  const userHome = join(root, 'user');
  const outside = join(root, 'outside');
  for (const dir of [
    home,
    join(home, 'cache', 'images'),
    join(home, 'profiles', 'work', 'cache'),
    userHome,
    join(userHome, '.ssh'),
    outside,
  ]) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(join(home, '.env'), 'SECRET=1\n');
  writeFileSync(join(home, 'config.yaml'), 'model: {}\n');
  writeFileSync(join(home, 'state.db'), 'db');
  writeFileSync(join(home, 'cache', 'images', 'cat.png'), 'png');
  writeFileSync(join(home, 'profiles', 'work', '.env'), 'SECRET=2\n');
  writeFileSync(join(home, 'profiles', 'work', 'cache', 'ok.txt'), 'ok');
  writeFileSync(join(userHome, '.ssh', 'id_ed25519'), 'key');
  writeFileSync(join(outside, 'report.pdf'), 'pdf');
  writeFileSync(join(outside, 'empty.txt'), '');
  writeFileSync(join(outside, 'big.bin'), Buffer.alloc(2048));
  symlinkSync(join(home, '.env'), join(outside, 'link.txt'));
  symlinkSync(home, join(outside, 'home-link'));
  const options: MediaSourceOptions = {
    hermesHomes: [home],
    downloadDir: join(home, 'cache', 'media', 'outbound'),
    maxBytes: 1024,
    homeDir: userHome,
  };
  return { root, home, userHome, outside, options };
}

describe('outbound media: what is never sent', () => {
  it('refuses every file of HERMES_HOME outside cache/, however it is named', async () => {
    const { home, outside, options } = setup();
    for (const ref of [
      join(home, '.env'),
      join(home, 'config.yaml'),
      join(home, 'state.db'),
      `${home}/cache/../.env`,
      join(outside, 'link.txt'),
      join(outside, 'home-link', '.env'),
      join(home, 'profiles', 'work', '.env'),
    ]) {
      const result = await resolveMedia(ref, options);
      expect(result, ref).toMatchObject({ ok: false });
      if (!result.ok) expect(result.note).toContain('never sent');
    }
  });

  it("allows HERMES_HOME/cache (a profile's too) and files elsewhere, resolved", async () => {
    const { home, outside } = setup();
    const withProfile = { ...setup().options, hermesHomes: [home, join(home, 'profiles', 'work')] };
    expect(await resolveMedia(join(home, 'cache', 'images', 'cat.png'), withProfile)).toMatchObject({
      ok: true,
      kind: 'image',
      mimeType: 'image/png',
    });
    expect(await resolveMedia(join(home, 'profiles', 'work', 'cache', 'ok.txt'), withProfile)).toMatchObject({
      ok: true,
    });
    expect(await resolveMedia(join(home, 'profiles', 'work', '.env'), withProfile)).toMatchObject({ ok: false });
    expect(await resolveMedia(join(outside, 'report.pdf'), withProfile)).toMatchObject({
      ok: true,
      kind: 'document',
      fileName: 'report.pdf',
    });
  });

  it("refuses the user's keys and /proc entries", async () => {
    const { userHome, options } = setup();
    expect(await resolveMedia(join(userHome, '.ssh', 'id_ed25519'), options)).toMatchObject({ ok: false });
    expect(await resolveMedia('/proc/self/environ', options)).toMatchObject({ ok: false });
  });

  it('bad files get a note naming what is wrong', async () => {
    const { outside, options } = setup();
    const note = async (ref: string) => {
      const result = await resolveMedia(ref, options);
      return result.ok ? 'sent' : result.note;
    };
    expect(await note(join(outside, 'empty.txt'))).toMatch(/empty\.txt: the file is empty/);
    expect(await note(join(outside, 'big.bin'))).toMatch(/2048 bytes, over the limit of 1024 bytes/);
    expect(await note(join(outside, 'missing.png'))).toMatch(/no such file/);
    expect(await note(outside)).toMatch(/not a regular file/);
    expect(await note('relative/path.png')).toMatch(/absolute path/);
    expect(await note('http://example.com/a.png')).toMatch(/only https/);
  });

  it('https URLs go through the SSRF guard: a loopback address is refused', async () => {
    const { options } = setup();
    const download = createSafeDownload({ allowPrivate: false, timeoutMs: 2_000, maxBytes: 1024 });
    const result = await resolveMedia('https://127.0.0.1:1/secret.png', { ...options, download });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.note).toMatch(/127\.0\.0\.1/);
  });
});

describe("outbound media: read_file's roots and the asker's own cache folder (users apart)", () => {
  function perUser() {
    const { home, userHome, outside, options } = setup();
    const cache = join(home, 'cache', 'media');
    const alice = join(cache, safeIdentityName('telegram:111'));
    mkdirSync(alice, { recursive: true });
    writeFileSync(join(alice, 'statement.pdf'), 'pdf');
    writeFileSync(join(cache, 'loose.pdf'), 'pdf');
    mkdirSync(join(userHome, '.config', 'gh'), { recursive: true });
    writeFileSync(join(userHome, '.pgpass'), 'db:*:*:app:pw');
    writeFileSync(join(userHome, '.config', 'gh', 'hosts.yml'), 'oauth_token: x');
    writeFileSync(join(userHome, 'notes.txt'), 'notes');
    const guarded: MediaSourceOptions = {
      ...options,
      mediaCache: cache,
      // read_file's guard: the working directory is the user's home, HERMES_HOME protected
      fileGuard: { cwd: userHome, hermesHomes: [home], homeDir: userHome },
    };
    return { alice: join(alice, 'statement.pdf'), cache, userHome, outside, guarded };
  }

  it("sends a user's cached file to that user (or a linked account's owner) only", async () => {
    const { alice, cache, guarded } = perUser();
    expect(await resolveMedia(alice, guarded, { owner: 'telegram:111' })).toMatchObject({ ok: true });
    for (const owner of ['telegram:222', undefined]) {
      const result = await resolveMedia(alice, guarded, { owner });
      expect(result, String(owner)).toMatchObject({ ok: false });
      if (!result.ok) expect(result.note).toContain('sent only to the user who sent them');
    }
    expect(await resolveMedia(join(cache, 'loose.pdf'), guarded, { owner: 'telegram:111' })).toMatchObject({
      ok: false,
    });
  });

  it('refuses what read_file refuses: outside its roots, ~/.pgpass, ~/.config/gh, /etc/shadow', async () => {
    const { userHome, outside, guarded } = perUser();
    const asker = { owner: 'telegram:111' };
    expect(await resolveMedia(join(userHome, 'notes.txt'), guarded, asker)).toMatchObject({ ok: true });
    for (const ref of [
      join(outside, 'report.pdf'),
      join(userHome, '.pgpass'),
      join(userHome, '.config', 'gh', 'hosts.yml'),
      '/etc/shadow',
    ]) {
      const result = await resolveMedia(ref, guarded, asker);
      expect(result, ref).toMatchObject({ ok: false });
    }
  });
});
