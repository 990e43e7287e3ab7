// Files and growth: what Hermes writes under HERMES_HOME is owner-only whatever the umask (the home
// and its directories 0700; state.db, its -wal and -shm, the logs and .env 0600), and state.db does
// not grow forever (state.retention_days, `hermes state prune`, `hermes state vacuum`). Real
// processes of the built CLI; rows backdated straight in state.db.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, type Store } from '@hermes/store';
import { afterEach, describe, expect, it } from 'vitest';
import { appendDotEnv } from '../../apps/hermes/src/commands/plugins-dotenv.js';
import { writeDotEnvValue } from '../../apps/hermes/src/dotenv-write.js';
import { acquireLock, lockPath, releaseLock } from '../../apps/hermes/src/service/pid-lock.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { type RunningGateway, spawnGateway } from '../helpers/spawn-gateway.js';

const DAY = 24 * 60 * 60 * 1000;
const mode = (path: string) => statSync(path).mode & 0o777;

let gateway: RunningGateway | undefined;
let savedUmask: number | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
  if (savedUmask !== undefined) process.umask(savedUmask);
  savedUmask = undefined;
});

/** The most permissive umask: a mode that is only asked for at creation would come out 0666/0777. */
function openUmask(): void {
  savedUmask = process.umask(0);
}

const baseEnv = (home: string): Record<string, string> => ({
  HERMES_HOME: home,
  HERMES_INFERENCE_MODEL: 'files-model',
  OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
});

/** Sessions with transcripts, one idle `idleDays`; the big one makes VACUUM's effect visible. */
function seed(store: Store, sessions: { key: string; idleDays: number; bytes?: number }[]): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const s of sessions) {
    const row = store.sessions.create({ key: s.key, platform: 'telegram' });
    const text = 'x'.repeat(s.bytes ?? 100);
    store.transcripts.append(row.id, [
      { role: 'user', content: text },
      { role: 'assistant', content: 'ok' },
    ]);
    const at = Date.now() - s.idleDays * DAY;
    store.db.prepare('UPDATE sessions SET updated_at = ?, created_at = ? WHERE id = ?').run(at, at, row.id);
    ids[s.key] = row.id;
  }
  return ids;
}

describe('file modes', () => {
  it('gateway run with umask 0 in a new HERMES_HOME: home and logs 0700; state.db, -wal, -shm and gateway.log 0600', async () => {
    const home = join(tempHome(), 'new-home');
    openUmask();
    gateway = await spawnGateway(baseEnv(home));
    for (const dir of [home, join(home, 'logs'), join(home, 'cache'), join(home, 'cache', 'media')])
      expect([dir, mode(dir).toString(8)]).toEqual([dir, '700']);
    const db = join(home, 'state.db');
    const files = [db, `${db}-wal`, `${db}-shm`, join(home, 'logs', 'gateway.log')];
    for (const file of files) {
      expect(existsSync(file)).toBe(true);
      expect([file, mode(file).toString(8)]).toEqual([file, '600']);
    }
    expect(gateway.stderr()).not.toMatch(/accessible to group or others/);
  });

  it('an existing home open to others: gateway run warns once and tightens the files it owns (state.db, logs)', async () => {
    const home = tempHome();
    chmodSync(home, 0o755);
    mkdirSync(join(home, 'logs'));
    writeFileSync(join(home, 'logs', 'gateway.log'), '');
    chmodSync(join(home, 'logs', 'gateway.log'), 0o644);
    const store = openStore(join(home, 'state.db'));
    store.close();
    chmodSync(join(home, 'state.db'), 0o644);
    gateway = await spawnGateway(baseEnv(home));
    const warnings = gateway.stderr().match(/warning: .*accessible to group or others \(mode 0755\).*chmod 700/g) ?? [];
    expect(warnings).toHaveLength(1);
    expect(mode(home)).toBe(0o755); // the directory is the owner's choice: warned, not changed
    expect(mode(join(home, 'state.db'))).toBe(0o600);
    expect(mode(join(home, 'logs', 'gateway.log'))).toBe(0o600);
    const doctor = await runHermes(['doctor'], { env: baseEnv(home) });
    expect(doctor.stdout).toMatch(/accessible to group or others \(mode 0755\)/);
  });

  it('CLI writes: config set in a new home (0700, config.yaml 0600); .env written or appended is 0600, even over an older 0644 one', async () => {
    const home = join(tempHome(), 'cli-home');
    openUmask();
    const r = await runHermes(['config', 'set', 'agent.max_iterations', '7'], { env: { HERMES_HOME: home } });
    expect(r.code).toBe(0);
    expect(mode(home)).toBe(0o700);
    expect(mode(join(home, 'config.yaml'))).toBe(0o600);
    const env = join(home, '.env');
    writeDotEnvValue(env, 'TELEGRAM_HOME_CHANNEL', '42');
    expect(mode(env)).toBe(0o600);
    chmodSync(env, 0o644);
    writeDotEnvValue(env, 'TELEGRAM_HOME_CHANNEL', '43');
    expect(mode(env)).toBe(0o600);
    chmodSync(env, 0o644);
    appendDotEnv(env, [['EXA_API_KEY', 'exa-secret-value']]);
    expect(mode(env)).toBe(0o600);
    const fresh = join(tempHome(), 'sub', '.env');
    appendDotEnv(fresh, [['A', 'b']]);
    expect(mode(fresh)).toBe(0o600);
    expect(mode(join(fresh, '..'))).toBe(0o700);
    expect(readFileSync(env, 'utf8')).toBe('TELEGRAM_HOME_CHANNEL=43\nEXA_API_KEY=exa-secret-value\n');
  });
});

describe('retention', () => {
  it('hermes state prune: usage error without a number of days; --dry-run counts; --days deletes idle sessions only', async () => {
    const home = tempHome();
    const store = openStore(join(home, 'state.db'));
    const ids = seed(store, [
      { key: 'old-1', idleDays: 40 },
      { key: 'old-2', idleDays: 31 },
      { key: 'recent', idleDays: 2 },
    ]);
    const old = Date.now() - 40 * DAY;
    const inbox = store.inbox.accept('telegram', 'm-old', { text: 'old' });
    const pending = store.inbox.accept('telegram', 'm-pending', { text: 'unanswered' });
    if (!inbox.accepted || !pending.accepted) throw new Error('not accepted');
    store.inbox.mark(inbox.id, 'done');
    store.db.prepare('UPDATE inbox SET accepted_at = ?').run(old);
    store.close();
    const env = { HERMES_HOME: home };

    const usage = await runHermes(['state', 'prune'], { env });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--days N, or state\.retention_days/);
    const bad = await runHermes(['state', 'prune', '--days', 'soon'], { env });
    expect(bad.code).toBe(2);

    const dry = await runHermes(['state', 'prune', '--days', '30', '--dry-run'], { env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/would delete 2 sessions \(4 messages\), 1 inbox rows/);
    const counts = () => {
      const s = openStore(join(home, 'state.db'));
      try {
        return {
          sessions: s.db.prepare('SELECT COUNT(*) AS n FROM sessions').get() as { n: number },
          messages: s.transcripts.count(ids.recent ?? ''),
          inbox: s.inbox.countByStatus(),
        };
      } finally {
        s.close();
      }
    };
    expect(counts().sessions.n).toBe(3);

    const real = await runHermes(['state', 'prune', '--days', '30'], { env });
    expect(real.code).toBe(0);
    expect(real.stdout).toMatch(/deleted 2 sessions \(4 messages\), 1 inbox rows/);
    const after = counts();
    expect(after.sessions.n).toBe(1);
    expect(after.messages).toBe(2);
    // an unanswered message is never pruned, however old
    expect(after.inbox).toMatchObject({ accepted: 1, done: 0 });

    // the config key is the default number of days
    writeFileSync(join(home, 'config.yaml'), 'state:\n  retention_days: 1\n');
    const byConfig = await runHermes(['state', 'prune'], { env });
    expect(byConfig.code).toBe(0);
    expect(byConfig.stdout).toMatch(/idle > 1 days\): deleted 1 sessions \(2 messages\)/);
  });

  it('state.retention_days: gateway run prunes at start', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'state:\n  retention_days: 30\n');
    const store = openStore(join(home, 'state.db'));
    seed(store, [
      { key: 'old', idleDays: 45 },
      { key: 'recent', idleDays: 1 },
    ]);
    store.close();
    gateway = await spawnGateway(baseEnv(home));
    const check = openStore(join(home, 'state.db'));
    try {
      const keys = check.db.prepare('SELECT session_key AS key FROM sessions').all() as { key: string }[];
      expect(keys.map((k) => k.key)).toEqual(['recent']);
    } finally {
      check.close();
    }
    expect(readFileSync(join(home, 'logs', 'gateway.log'), 'utf8')).toMatch(
      /state pruned \(idle > 30 days\): 1 sessions \(2 messages\)/,
    );
  });

  it('hermes state vacuum: refused while a gateway holds the home; then shrinks the file after a prune', async () => {
    const home = tempHome();
    const store = openStore(join(home, 'state.db'));
    seed(store, [
      { key: 'big', idleDays: 90, bytes: 4 * 1024 * 1024 },
      { key: 'small', idleDays: 0 },
    ]);
    store.close();
    const env = { HERMES_HOME: home };
    expect((await runHermes(['state', 'prune', '--days', '30'], { env })).code).toBe(0);

    const lock = acquireLock(lockPath(home), { version: 'test', home });
    expect(lock.ok).toBe(true);
    try {
      const refused = await runHermes(['state', 'vacuum'], { env });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/a gateway is running for .*: VACUUM would block its writes; stop it first/);
    } finally {
      releaseLock(lockPath(home));
    }

    const done = await runHermes(['state', 'vacuum'], { env });
    expect(done.code).toBe(0);
    const m = /state vacuum: .*state\.db ([\d.]+) MiB -> ([\d.]+) MiB/.exec(done.stdout);
    expect(m).not.toBeNull();
    const [before, after] = [Number(m?.[1]), Number(m?.[2])];
    expect(before).toBeGreaterThan(4);
    expect(after).toBeLessThan(0.5);
    expect(mode(join(home, 'state.db'))).toBe(0o600);
  });
});
