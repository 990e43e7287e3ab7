// `npm run bench -- builds` (only when named; BENCH_BASE_BIN=<another checkout>/apps/hermes/bin/hermes.js):
// this build's `hermes gateway run` against another build's, each in its own process on its own fake
// platform, alternating rounds (base, this, base, this, ...) at 64 chats and at 1 chat, so a change
// can be shown not to make the pipeline slower. CPU per message from each process's own CPU time.
import { startModelProcess } from './model-process.js';
import { medianRound, type Round } from './process-figures.js';
import {
  FIRST_WARMUP,
  machineLine,
  measure,
  PIPELINE_MAX_CONCURRENT_RUNS,
  pipelineOptionsFromEnv,
  RIGS,
  ROUND_WARMUP,
} from './process-pipeline.js';
import { closeAll, MODEL_ANSWER, type RunningSystem } from './rig.js';

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

export async function runBuilds(): Promise<void> {
  const base = process.env.BENCH_BASE_BIN;
  if (!base) {
    console.log("builds bench skipped: set BENCH_BASE_BIN to another build's apps/hermes/bin/hermes.js");
    return;
  }
  // the three first platforms unless BENCH_PLATFORMS names others: a build's pipeline shows on them,
  // and email's 1-chat rounds (one SMTP session per answer) would run into the cap
  const options = {
    ...pipelineOptionsFromEnv(),
    ...(process.env.BENCH_PLATFORMS ? {} : { platforms: ['telegram', 'discord', 'slack'] }),
  };
  console.log(`builds bench (this build vs ${base}): ${machineLine()}`);
  for (const platform of options.platforms) {
    const rig = RIGS[platform];
    if (rig === undefined) throw new Error(`builds: unknown platform ${platform}`);
    const closers: (() => Promise<void>)[] = [];
    try {
      const model = await startModelProcess(MODEL_ANSWER);
      closers.push(() => model.close());
      const systems: { name: string; system: RunningSystem<never> }[] = [];
      for (const [name, bin] of [
        ['base build', base],
        ['this build', ''],
      ] as const) {
        // hermes-process.ts spawns BENCH_HERMES_BIN when set, else this checkout's bin
        process.env.BENCH_HERMES_BIN = bin;
        const system = await rig.start({
          kind: 'hermes',
          modelUrl: model.url,
          maxConcurrentRuns: PIPELINE_MAX_CONCURRENT_RUNS,
        });
        closers.push(() => system.close());
        systems.push({ name, system });
      }
      delete process.env.BENCH_HERMES_BIN;
      for (const { system } of systems) await measure(system, model, { chats: 64, warmup: FIRST_WARMUP, messages: 0 });
      const many: Round[][] = systems.map(() => []);
      const one: Round[][] = systems.map(() => []);
      const oneChat = Math.max(20, Math.round(options.messages / 3));
      for (let round = 0; round < options.rounds; round++) {
        for (const [i, { system }] of systems.entries()) {
          const r = await measure(system, model, { chats: 64, warmup: ROUND_WARMUP.many, messages: options.messages });
          if (r) many[i]?.push(r);
          const o = await measure(system, model, { chats: 1, warmup: ROUND_WARMUP.one, messages: oneChat });
          if (o) one[i]?.push(o);
        }
      }
      const rows = systems.map(({ name, system }, i) => ({
        name,
        many: medianRound(many[i] ?? []),
        one: medianRound(one[i] ?? []),
        rss: system.proc.rssMb(),
      }));
      console.log(`\n#### ${platform}\n`);
      console.log(
        '| build | msg/s at 64 chats | CPU ms/msg at 64 chats | p50 / p99 ms at 1 chat | CPU ms/msg at 1 chat | RSS MB |',
      );
      console.log('|---|---|---|---|---|---|');
      for (const r of rows)
        console.log(
          `| ${r.name} | ${fmt(r.many.msgPerSec, 0)} | ${fmt(r.many.cpuMsPerMsg)} | ${fmt(r.one.p50)} / ${fmt(r.one.p99)} | ${fmt(r.one.cpuMsPerMsg)} | ${fmt(r.rss, 0)} |`,
        );
      const [b, t] = rows;
      if (b && t)
        console.log(
          `| this / base | ${fmt(t.many.msgPerSec / b.many.msgPerSec)}x | ${fmt(t.many.cpuMsPerMsg / b.many.cpuMsPerMsg)}x | | ${fmt(t.one.cpuMsPerMsg / b.one.cpuMsPerMsg)}x | |`,
        );
      console.log(
        `- ${options.rounds} alternating rounds of ${options.messages} messages at 64 chats and ${oneChat} at 1 chat`,
      );
    } finally {
      await closeAll(closers);
    }
  }
}
