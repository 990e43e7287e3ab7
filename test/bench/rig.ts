// What the process benches need from each platform: a fake of the platform's API in the bench
// process, and on it either system (the bare SDK echo bot or Hermes) started as its own process,
// with the traffic that writes chats in and sees the replies come out.
import type { ChatTraffic } from './closed-loop.js';
import type { SystemProcess } from './system-process.js';

/**
 * `echo`: the bare SDK bot answering without a model request (the plain echo bot, the stack's
 * limit); `bare`: the same SDK bot asking the fake model with the official `openai` client once per
 * message, each chat's history sent whole (test/bench/bare/model.ts); `hermes`: the gateway;
 * `openclaw`: OpenClaw (Telegram only, test/bench/openclaw-process.ts).
 */
export type SystemKind = 'echo' | 'bare' | 'hermes' | 'openclaw';

/** The environment that makes a bare bot a plain echo bot (no model request). */
export const plainEcho = (kind: SystemKind): Record<string, string> =>
  kind === 'echo' ? { BENCH_FIXED_ANSWER: MODEL_ANSWER } : {};
/** The label of a bare bot of this kind. */
export const bareLabel = (sdk: string, kind: SystemKind): string =>
  kind === 'echo' ? `${sdk} echo, no model` : `${sdk} + openai client`;

/** Both systems answer every message with the fake model's one answer. */
export const MODEL_ANSWER = 'echo';

export interface RunningSystem<C> {
  kind: SystemKind;
  /** e.g. `bare grammy + openai client`, `hermes` */
  label: string;
  proc: SystemProcess;
  traffic: ChatTraffic<C>;
  /** platform API calls the fake recorded since the last call (its records are dropped) */
  takeApiCalls(): number;
  /** replies no chat was waiting for */
  unexpected(): number;
  /** stops the process and closes its fake */
  close(): Promise<void>;
}

export interface StartOptions {
  kind: SystemKind;
  modelUrl: string;
  /** Hermes's gateway.max_concurrent_runs */
  maxConcurrentRuns: number;
  /** Hermes only: runs with the fresh HERMES_HOME before the gateway starts */
  prepare?: (home: string) => void | Promise<void>;
}

export interface PlatformRig<C> {
  platform: 'telegram' | 'discord' | 'slack' | 'whatsapp' | 'matrix' | 'signal' | 'email';
  /** what the platform's API calls are called in the output */
  apiCalls: string;
  /** starts a fake and one system on it */
  start(options: StartOptions): Promise<RunningSystem<C>>;
}

/** `reply` is right when it is the model's answer (both systems reply with it). */
export const expectModelAnswer = (_sent: string, reply: string): boolean => reply === MODEL_ANSWER;

/** Runs every closer even when one fails; throws the first failure. */
export async function closeAll(closers: (() => Promise<void> | void)[]): Promise<void> {
  let failure: unknown;
  for (const close of [...closers].reverse()) {
    try {
      await close();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
}
