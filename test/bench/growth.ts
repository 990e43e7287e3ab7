// `npm run bench -- growth` (issue 17, item 4): how Hermes's cost per message grows with concurrent
// chats (1, 64, 256) and with the history each chat already has (10, 1,000, 5,000 transcript rows).
// Hermes runs as users run it (`hermes gateway run`, Telegram webhook, its own process); for each
// history size a fresh HERMES_HOME is seeded through the store's API before the gateway starts.
// Prints a Markdown table and writes the plot to docs/perf-growth.png (BENCH_GROWTH_PNG overrides).
// A point is one measured pass (not rounds): each takes a fresh seeded home and tens of seconds.
// Before any point the gateway answers WARMUP_MESSAGES on fresh chats, as the pipeline bench's
// warm-up does: a cold process (JIT, first sockets, SQLite pages) costs 2 to 3 times the CPU per
// message of a warm one, which the first version of this bench measured as "cost at 64 chats".
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChatTraffic, runClosedLoop } from './closed-loop.js';
import { growthContextLength, setContextLength } from './growth-context.js';
import { writeGrowthPlot } from './growth-plot.js';
import { mainThreadSched } from './growth-runqueue.js';
import { startModelProcess } from './model-process.js';
import { type Round, roundOf } from './process-figures.js';
import { machineLine } from './process-pipeline.js';
import { expectModelAnswer, MODEL_ANSWER, type RunningSystem } from './rig.js';
import { telegramChatId, telegramRig, telegramSessionKey } from './rig-telegram.js';
import { seedHistory } from './seed-history.js';
import { smokeOr } from './smoke.js';
import type { SystemProcess } from './system-process.js';

export const GROWTH_CONCURRENCY = [1, 64, 256] as const;
export const GROWTH_HISTORY: readonly number[] = [10, 1_000, 5_000];

/** BENCH_GROWTH_HISTORY (comma-separated rows per chat) shortens a run while developing (BENCH_SMOKE=1: 10 rows only). */
function historiesFromEnv(): readonly number[] {
  const asked = (process.env.BENCH_GROWTH_HISTORY ?? '')
    .split(',')
    .filter((part) => part.trim() !== '')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n >= 0);
  return asked.length > 0 ? asked : smokeOr(GROWTH_HISTORY, [10]);
}

/** Chats per concurrency level, and measured turns per chat (so a chat's history barely moves; BENCH_SMOKE=1: 1). */
const POOL: Record<number, { chats: number; turns: number }> = {
  1: { chats: 25, turns: smokeOr(8, 1) },
  64: { chats: 64, turns: smokeOr(8, 1) },
  256: { chats: 256, turns: smokeOr(4, 1) },
};
/** Excluded messages on fresh chats (64 at a time, 10 turns each) before the first point, as in the pipeline bench. */
export const WARMUP_MESSAGES = 2_000;
const WARMUP_CHATS = 64;
/** warm-up chat ids start here: far from the pools' (telegramChatId(0..344)) */
const WARMUP_CHAT_BASE = 100_000;
/** at 5,000 rows and 256 chats every request carries the whole history: replies take tens of seconds */
const REPLY_TIMEOUT_MS = 300_000;
const RUN_CAP_MS = 600_000;

export interface GrowthPoint {
  concurrency: number;
  history: number;
  round: Round;
  /** share of the point's wall time the gateway's main thread (its event loop) ran on a CPU, % */
  mainRunPct: number;
  /** share of the point's wall time it was runnable but waited for a CPU (the loaded machine's part), % */
  mainWaitPct: number;
  /** the 1-minute load average when the point started */
  load: number;
  /** Hermes's RSS after every concurrency level ran at this history, MB */
  rssMb: number;
  /** (RSS after every level − RSS after the warm-up) / seeded chats: what one warm session with this history holds, KB */
  rssKbPerSession: number;
}

/** A gateway's warm-up: `messages` on fresh, unseeded chats, not measured. */
async function warmUp(traffic: ChatTraffic<number>, messages: number): Promise<void> {
  let next = 0;
  const fresh = () => telegramChatId(WARMUP_CHAT_BASE + next++);
  await runClosedLoop(
    { ...traffic, newChat: fresh },
    {
      chats: Array.from({ length: WARMUP_CHATS }, fresh),
      turnsPerChat: 10,
      messages,
      capMs: RUN_CAP_MS,
      replyTimeoutMs: REPLY_TIMEOUT_MS,
      expect: expectModelAnswer,
    },
  );
}

/** The chat ids of each concurrency level's pool: disjoint, so no pool inherits another's turns. */
export function growthPools(): Map<number, number[]> {
  const out = new Map<number, number[]>();
  let next = 0;
  for (const c of GROWTH_CONCURRENCY) {
    const size = POOL[c]?.chats ?? c;
    out.set(
      c,
      Array.from({ length: size }, () => telegramChatId(next++)),
    );
  }
  return out;
}

/** What a point needs of the running gateway and of the fake model (a fake of both in the tests). */
export interface GrowthTarget {
  system: Pick<RunningSystem<number>, 'traffic' | 'takeApiCalls'> & {
    proc: Pick<SystemProcess, 'pid' | 'cpuMs' | 'rssMb'>;
  };
  model: { takeRequestCount(): Promise<number> };
}

/**
 * The points of one history size on a started gateway whose pool chats were seeded: the warm-up on
 * fresh chats first (`warmupMessages`), then per concurrency level one excluded message per pool chat
 * (its transcript is read from state.db then, and kept warm after) and the measured pass.
 */
export async function measurePoints(
  { system, model }: GrowthTarget,
  history: number,
  byConcurrency: ReadonlyMap<number, readonly number[]>,
  warmupMessages = WARMUP_MESSAGES,
): Promise<GrowthPoint[]> {
  const allChats = [...byConcurrency.values()].flat();
  const points: GrowthPoint[] = [];
  await warmUp(system.traffic, warmupMessages);
  const rssWarmMb = system.proc.rssMb();
  for (const concurrency of GROWTH_CONCURRENCY) {
    const pool = byConcurrency.get(concurrency) ?? [];
    const turns = POOL[concurrency]?.turns ?? 4;
    const load = (turnsPerChat: number) => {
      let cursor = concurrency;
      const traffic = {
        ...system.traffic,
        newChat: () => {
          const chat = pool[cursor++];
          if (chat === undefined) throw new Error(`growth: pool of ${pool.length} chats exhausted`);
          return chat;
        },
      };
      return runClosedLoop(traffic, {
        chats: pool.slice(0, concurrency),
        // a pool as large as the concurrency keeps each slot on its chat (moving on could collide)
        ...(pool.length > concurrency ? { turnsPerChat } : {}),
        messages: pool.length * turnsPerChat,
        capMs: RUN_CAP_MS,
        replyTimeoutMs: REPLY_TIMEOUT_MS,
        expect: expectModelAnswer,
      });
    };
    await load(1);
    system.takeApiCalls();
    await model.takeRequestCount();
    const load1 = loadavg()[0] ?? 0;
    const before = system.proc.cpuMs();
    const schedBefore = mainThreadSched(system.proc.pid);
    const result = await load(turns);
    const cpuMs = system.proc.cpuMs() - before;
    const schedAfter = mainThreadSched(system.proc.pid);
    const round = roundOf(result, cpuMs, system.takeApiCalls(), await model.takeRequestCount());
    const pct = (key: 'runMs' | 'waitMs') =>
      schedBefore && schedAfter ? ((schedAfter[key] - schedBefore[key]) / result.elapsedMs) * 100 : Number.NaN;
    points.push({
      concurrency,
      history,
      round,
      mainRunPct: pct('runMs'),
      mainWaitPct: pct('waitMs'),
      load: load1,
      rssMb: 0,
      rssKbPerSession: 0,
    });
  }
  const rssMb = system.proc.rssMb();
  for (const p of points) {
    p.rssMb = rssMb;
    p.rssKbPerSession = ((rssMb - rssWarmMb) * 1024) / allChats.length;
  }
  return points;
}

async function measureHistory(history: number, modelUrl: string, model: GrowthTarget['model']) {
  const byConcurrency = growthPools();
  const allChats = [...byConcurrency.values()].flat();
  const seedStarted = performance.now();
  const system = await telegramRig.start({
    kind: 'hermes',
    modelUrl,
    maxConcurrentRuns: Math.max(...GROWTH_CONCURRENCY),
    prepare: (home) => {
      setContextLength(home, growthContextLength()); // the context engine on: requests stop growing
      seedHistory(home, { keys: allChats.map(telegramSessionKey), platform: 'telegram', rows: history });
    },
  });
  const seedS = (performance.now() - seedStarted) / 1000;
  let points: GrowthPoint[];
  try {
    points = await measurePoints({ system, model }, history, byConcurrency, smokeOr(WARMUP_MESSAGES, 64));
  } catch (error) {
    console.error(`growth: history ${history} failed; the gateway's last output:\n${system.proc.outputTail()}`);
    throw error;
  } finally {
    await system.close();
  }
  console.log(
    `- history ${history}: ${allChats.length} chats seeded and the gateway connected in ${seedS.toFixed(1)} s`,
  );
  return points;
}

const f0 = (x: number) => x.toFixed(0);
const f2 = (x: number) => x.toFixed(2);

export function growthTable(points: readonly GrowthPoint[]): string {
  return [
    '| history rows per chat | concurrent chats | msg/s | p50 ms | p99 ms | CPU ms/msg | main thread on CPU / waiting for CPU, % of wall | load | model requests/msg | RSS MB after | RSS KB per warm session |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...points.map(
      (p) =>
        `| ${p.history.toLocaleString('en-US')} | ${p.concurrency} | ${f0(p.round.msgPerSec)} | ${f2(p.round.p50)} | ` +
        `${f2(p.round.p99)} | ${f2(p.round.cpuMsPerMsg)} | ${f0(p.mainRunPct)} / ${f0(p.mainWaitPct)} | ${p.load.toFixed(1)} | ` +
        `${f2(p.round.modelRequestsPerMsg)} | ${f0(p.rssMb)} | ${f0(p.rssKbPerSession)} |` +
        (p.round.capped ? ' (time cap hit)' : ''),
    ),
  ].join('\n');
}

/** a smoke run's plot never replaces the real one in docs/ */
const DEFAULT_PNG = smokeOr(
  fileURLToPath(new URL('../../docs/perf-growth.png', import.meta.url)),
  join(tmpdir(), 'hermes-bench-growth-smoke.png'),
);

/** Runs every point, prints the table, writes the plot. */
export async function runGrowth(): Promise<void> {
  console.log(`growth bench (hermes gateway run, Telegram webhook, its own process): ${machineLine()}`);
  const contextLength = growthContextLength();
  console.log(contextLength > 0 ? `model.context_length ${contextLength} (compression on)` : 'compression off');
  const model = await startModelProcess(MODEL_ANSWER);
  const points: GrowthPoint[] = [];
  try {
    for (const history of historiesFromEnv()) {
      const measured = await measureHistory(history, model.url, model);
      // printed as each size completes, so a later failure keeps what was measured
      console.log(growthTable(measured));
      points.push(...measured);
    }
  } finally {
    await model.close();
  }
  console.log(`\n${growthTable(points)}\n`);
  const png = process.env.BENCH_GROWTH_PNG ?? DEFAULT_PNG;
  writeGrowthPlot(points, png, new Date().toISOString().slice(0, 10));
  console.log(`plot written to ${png}`);
}
