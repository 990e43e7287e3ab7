// `hermes backup` through the built CLI: a .tar.gz of HERMES_HOME taken while a gateway runs, with
// a consistent state.db (the online backup API) holding the turn just answered, the live
// database's side files, caches, locks and earlier backups left out, readable by its owner only;
// on PostgreSQL without pg_dump the files are archived and the command fails naming the gap.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { extract } from 'tar';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();

async function unpack(archive: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-backup-out-'));
  await extract({ file: archive, cwd: dir });
  return dir;
}

describe('hermes backup', () => {
  it('archives HERMES_HOME with a consistent state.db while the gateway runs; leaves out side files, cache, locks', async () => {
    const home = tempHome();
    writeFileSync(join(home, '.env'), 'TELEGRAM_BOT_TOKEN=kept-in-the-backup\n');
    mkdirSync(join(home, 'cache', 'media'), { recursive: true });
    writeFileSync(join(home, 'cache', 'media', 'big.bin'), 'x'.repeat(1000));
    mkdirSync(join(home, 'memories'), { recursive: true });
    writeFileSync(join(home, 'memories', 'MEMORY.md'), 'remember this\n');
    const env = { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model' };
    openai.server.script({ text: 'answered before the backup' });
    const gw = await spawnGateway(env);
    try {
      const res = await fetch(`${gw.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hermes-session': 'backup-test' },
        body: JSON.stringify({ model: 'hermes', messages: [{ role: 'user', content: 'hello backup' }] }),
      });
      expect(res.status).toBe(200);
      const out = join(mkdtempSync(join(tmpdir(), 'hermes-backup-')), 'b.tar.gz');
      const r = await runHermes(['backup', '--output', out], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^backup: .*b\.tar\.gz \(.* KB; state\.db \(\d+ pages, online backup\)\)/);
      expect(statSync(out).mode & 0o777).toBe(0o600);
      const dir = await unpack(out);
      const names = readdirSync(dir).sort();
      expect(names).toContain('state.db');
      expect(names).toContain('.env');
      expect(names).toContain('memories');
      for (const gone of ['state.db-wal', 'state.db-shm', 'cache', 'gateway.lock', 'backups'])
        expect(names).not.toContain(gone);
      const db = new Database(join(dir, 'state.db'), { readonly: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        const rows = db.prepare("SELECT content FROM messages WHERE content LIKE '%backup%'").all() as {
          content: string;
        }[];
        expect(rows.map((row) => row.content)).toEqual(
          expect.arrayContaining(['hello backup', 'answered before the backup']),
        );
      } finally {
        db.close();
      }
    } finally {
      expect(await gw.stop()).toBe(0);
    }

    // by default into HERMES_HOME/backups, and a later backup never holds the earlier ones
    const first = await runHermes(['backup'], { env });
    expect(first.code, first.stderr).toBe(0);
    const second = await runHermes(['backup'], { env });
    expect(second.code, second.stderr).toBe(0);
    const kept = readdirSync(join(home, 'backups'));
    expect(kept.length).toBeGreaterThanOrEqual(1);
    const last = kept.sort().at(-1) ?? '';
    expect(last).toMatch(/^hermes-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.tar\.gz$/);
    expect(readdirSync(await unpack(join(home, 'backups', last)))).not.toContain('backups');
  });

  it('on PostgreSQL without pg_dump: the files are archived and it exits 1 saying the database is missing', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'state:\n  backend: postgres\n');
    const out = join(mkdtempSync(join(tmpdir(), 'hermes-backup-')), 'pg.tar.gz');
    const r = await runHermes(['backup', '-o', out], {
      env: { HERMES_HOME: home, HERMES_DATABASE_URL: 'postgres://u:p@127.0.0.1:1/none', PATH: '/nonexistent' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the PostgreSQL database is NOT in this backup (pg_dump is not installed)');
    expect(r.stderr).not.toContain('u:p@');
    expect(existsSync(out)).toBe(true);
    expect(readdirSync(await unpack(out))).toContain('config.yaml');
  });

  it('an empty HERMES_HOME (nothing written yet) is an empty archive, not an error', async () => {
    const home = tempHome();
    const out = join(mkdtempSync(join(tmpdir(), 'hermes-backup-')), 'empty.tar.gz');
    const r = await runHermes(['backup', '-o', out], { env: { HERMES_HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('no state.db yet');
    expect(readdirSync(await unpack(out))).toEqual([]);
  });
});
