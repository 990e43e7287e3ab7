// One system under test on a platform's fake, in its own process: the bare SDK bot (its script in
// test/bench/bare, as echo or asking the model) or Hermes (`gateway run`), for the rigs whose
// systems differ only in environment and settings (OpenClaw runs on Telegram only: rig-telegram.ts).
import { type BareBot, bareScript } from './bare-build.js';
import { startHermesProcess } from './hermes-process.js';
import { bareLabel, plainEcho, type StartOptions } from './rig.js';
import { type SystemProcess, spawnSystem } from './system-process.js';

export interface SystemSpec {
  /** the bare bot's label, e.g. `bare Bolt` */
  sdk: string;
  /** its script in test/bench/bare, without the extension */
  script: BareBot;
  /** its environment (the model URL and the echo switch are added) */
  bareEnv: Record<string, string>;
  /** its ready line (default `{"ready":true}`) */
  ready?: RegExp;
  /** `gateway.platforms.<platform>` settings and the platform's environment for Hermes */
  hermes: { platform: string; settings: Record<string, unknown>; env: Record<string, string> };
}

export interface StartedSystem {
  label: string;
  proc: SystemProcess;
  /** the port the system listens on: Hermes's, or the first group of the bare bot's ready line */
  port: number;
}

export async function startBareOrHermes(spec: SystemSpec, options: StartOptions): Promise<StartedSystem> {
  if (options.kind === 'openclaw') throw new Error('openclaw: the bench runs it on Telegram only');
  if (options.kind !== 'hermes') {
    const label = bareLabel(spec.sdk, options.kind);
    const proc = await spawnSystem({
      name: label,
      command: process.execPath,
      args: [bareScript(spec.script)],
      env: { ...spec.bareEnv, BENCH_MODEL_URL: options.modelUrl, ...plainEcho(options.kind) },
      ready: spec.ready ?? /\{"ready":true\}/,
    });
    return { label, proc, port: Number(proc.readyMatch[1] ?? 0) };
  }
  const proc = await startHermesProcess({
    ...spec.hermes,
    modelUrl: options.modelUrl,
    maxConcurrentRuns: options.maxConcurrentRuns,
    ...(options.prepare ? { prepare: options.prepare } : {}),
  });
  return { label: 'hermes', proc, port: proc.port };
}

/** Resolves once `ready()` holds (checked every 10 ms); throws naming `what` after `timeoutMs`. */
export async function benchUntil(what: string, ready: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!ready()) {
    if (performance.now() > deadline) throw new Error(`waited for ${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
