// Every bench of `npm run bench` runs here once, shrunk (BENCH_SMOKE=1, test/bench/smoke.ts): the
// same `node --import tsx test/bench/run.ts NAME` a user runs, the same processes and tables, a few
// hundred messages. A test asserts only that its bench exits 0 and prints its table, never a
// figure or a timing: a change that breaks a bench fails `npm test`. The build is npm test's own.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { postgresUnavailableReason } from '../helpers/postgres.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'hermes-bench-smoke-'));
const GROWTH_PNG = join(scratch, 'growth.png');

/** A number as the benches print one (so a table of `NaN` or `undefined` cells fails). */
const N = String.raw`\d+(?:\.\d+)?`;

interface Bench {
  name: string;
  /** lines (or parts of them) its output must have: its table */
  prints: RegExp[];
  /** why it cannot run on this machine, or null */
  unavailable?: () => string | null;
  /** then also true */
  check?: () => void;
  /** its own knobs (every other BENCH_* of the caller is dropped) */
  env?: Record<string, string>;
}

const BENCHES: Bench[] = [
  {
    name: 'cold-start',
    prints: [
      new RegExp(`cold start \\(median of \\d+\\): node -e 0 ${N} ms; hermes --help ${N} ms`),
      new RegExp(`cold start ratio: ${N}x node -e 0`),
    ],
  },
  {
    name: 'hook-bus',
    prints: ['on_session_start', 'pre_tool_call'].map(
      (hook) =>
        new RegExp(
          `hook bus ${hook}: 0 callbacks ${N} ns/call; 1 callbacks ${N} ns/call \\(-?${N} ns per callback\\); 10 callbacks ${N} ns/call`,
        ),
    ),
  },
  {
    name: 'plugin-load',
    prints: [0, 10, 50].map(
      (count) => new RegExp(`plugin load ${count} TS plugins: loadPlugins ${N} ms, process ${N} ms \\(${N}x`),
    ),
  },
  {
    name: 'redaction',
    prints: [
      ...['chat message', 'tool output', 'log line'].map(
        (text) => new RegExp(`redaction ${text} \\(.*\\): ${N} ns with no secrets, ${N} ns with 20 secrets`),
      ),
      new RegExp(`redaction: compiling 20 secrets took ${N} ms`),
    ],
  },
  {
    name: 'pipeline',
    prints: (
      [
        ['telegram', 'grammy'],
        ['discord', 'discord.js'],
        ['slack', 'Bolt'],
        // the bare bots of the platforms without an SDK that fits (test/bench/bare/*: each says why)
        ['whatsapp', 'node:http \\+ fetch'],
        ['matrix', 'fetch /sync loop'],
        ['signal', 'fetch \\+ SSE'],
        ['email', 'imapflow \\+ nodemailer'],
      ] as const
    ).flatMap(([platform, sdk]) => [
      new RegExp(`### ${platform}\\n\\n\\| system \\| msg/s at 64 chats`),
      // the baselines: the plain echo bot and the bot asking the model with the openai client
      ...[`bare ${sdk} echo, no model`, `bare ${sdk} \\+ openai client`].map(
        (row) => new RegExp(`### ${platform}\\n[^#]*\\n\\| ${row} \\| ${N} \\(${N}\\) \\| ${N} \\|`),
      ),
      new RegExp(`### ${platform}\\n[^#]*\\n\\| hermes \\| ${N} \\(${N}\\) \\| ${N} \\|`),
      new RegExp(`### ${platform}\\n[^#]*\\nTargets against `),
    ]),
  },
  {
    name: 'growth',
    prints: [
      /\| history rows per chat \| concurrent chats \| msg\/s \|/,
      ...[1, 64, 256].map((chats) => new RegExp(`\\| 10 \\| ${chats} \\| ${N} \\| ${N} \\| ${N} \\| ${N} \\|`)),
      new RegExp(`plot written to ${GROWTH_PNG.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    ],
    check: () => expect(existsSync(GROWTH_PNG)).toBe(true),
  },
  {
    name: 'soak',
    prints: [
      new RegExp(`soak: \\d+ sessions \\(one fresh chat each, 64 at a time\\) in ${N} s = ${N} msg/s`),
      new RegExp(`memory after a full GC: heap ${N} -> ${N} MB`),
      new RegExp(`transcript growth .*: 0 rows: p50 ${N} ms; \\d+ rows: p50 ${N} ms; \\d+ rows: p50 ${N} ms`),
      /query plan, outbox rows of a message: \S/,
    ],
  },
  {
    name: 'footprint',
    prints: ['first start \\(cold transform cache\\)', 'next start'].flatMap((label) => [
      new RegExp(
        `gateway footprint, ${label}: 3 platforms \\+ 20 plugins \\+ 10 gateway hooks, healthy ${N} ms after spawn`,
      ),
      // the figures would look better than they are with a plugin or a hook missing
      new RegExp(`gateway footprint, ${label}:.*\\n  phases .*; plugins failed: 0; gateway hooks loaded: 10`),
    ]),
  },
  {
    name: 'cluster',
    unavailable: postgresUnavailableReason,
    prints: [
      /#### API platform/,
      /#### Telegram long polling/,
      // the smoke run's three setups (test/bench/cluster.ts)
      ...['sqlite x1', 'postgres x2', 'postgres x2, sticky'].map(
        (setup) => new RegExp(`\\| ${setup} \\| ${N} \\| ${N} / ${N} \\| ${N} \\|`),
      ),
    ],
  },
  {
    // this build against itself: the table and the ratio row, on one platform
    name: 'builds',
    env: { BENCH_BASE_BIN: join(ROOT, 'apps/hermes/bin/hermes.js'), BENCH_PLATFORMS: 'telegram' },
    prints: [
      /#### telegram/,
      ...['base build', 'this build'].map(
        (b) => new RegExp(`\\| ${b} \\| ${N} \\| ${N} \\| ${N} / ${N} \\| ${N} \\| ${N} \\|`),
      ),
      new RegExp(`\\| this / base \\| ${N}x \\| ${N}x \\| \\| ${N}x \\| \\|`),
    ],
  },
];

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

let running: ChildProcess | null = null;

/** `node --import tsx test/bench/run.ts NAME` under BENCH_SMOKE=1, in a process group of its own. */
function runBench(name: string, knobs: Record<string, string> = {}): Promise<Run> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    // the caller's bench knobs (a BENCH_MESSAGES=3000 left exported) must not make a smoke run long
    if (value !== undefined && !key.startsWith('BENCH_')) env[key] = value;
  }
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/bench/run.ts', name], {
    cwd: ROOT,
    env: { ...env, ...knobs, BENCH_SMOKE: '1', BENCH_GROWTH_PNG: GROWTH_PNG },
    stdio: ['ignore', 'pipe', 'pipe'],
    // its own group: a test that times out kills the bench and every process it started
    detached: true,
  });
  running = child;
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      running = null;
      resolve({ code, signal, stdout, stderr, seconds: (performance.now() - started) / 1000 });
    });
  });
}

afterEach(() => {
  if (running?.pid !== undefined) {
    try {
      process.kill(-running.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  running = null;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('every bench, shrunk (BENCH_SMOKE=1), runs to its table', () => {
  for (const bench of BENCHES) {
    it(bench.name, { timeout: 240_000 }, async (ctx) => {
      const reason = bench.unavailable?.() ?? null;
      if (reason !== null) {
        console.warn(`bench ${bench.name} skipped: ${reason}`);
        ctx.skip(`cannot run here: ${reason}`);
      }
      const run = await runBench(bench.name, bench.env);
      const output = `exit ${run.code ?? run.signal} after ${run.seconds.toFixed(1)} s\n--- stdout\n${run.stdout.slice(-6000)}\n--- stderr\n${run.stderr.slice(-6000)}`;
      console.log(`bench ${bench.name} (smoke): ${run.seconds.toFixed(1)} s`);
      expect(run.code, output).toBe(0);
      expect(run.stdout, output).toContain('BENCH_SMOKE=1: a smoke run');
      for (const line of bench.prints) expect(run.stdout, output).toMatch(line);
      bench.check?.();
    });
  }
});
