// Starts test/bench/model-child.ts (the instant fake model) in its own process and talks to it over IPC.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ModelProcess {
  /** base URL for the openai client, http://127.0.0.1:PORT/v1 */
  url: string;
  /** chat requests the fake answered since the last call */
  takeRequestCount(): Promise<number>;
  close(): Promise<void>;
}

const CHILD = fileURLToPath(new URL('./model-child.ts', import.meta.url));

function nextMessage<T>(child: ChildProcess, pick: (m: unknown) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: unknown) => {
      const value = pick(m);
      if (value === undefined) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(value);
    };
    const onExit = (code: number | null) => reject(new Error(`fake model process exited (${code})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Forks the fake model with `answer` as its reply to every request. */
export async function startModelProcess(answer: string): Promise<ModelProcess> {
  const child = fork(CHILD, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_MODEL_ANSWER: answer },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const field =
    <K extends string>(key: K) =>
    (m: unknown) =>
      typeof m === 'object' && m !== null && key in m ? (m as Record<K, unknown>)[key] : undefined;
  const url = String(await nextMessage(child, field('url')));
  return {
    url,
    async takeRequestCount() {
      const reply = nextMessage(child, field('count'));
      child.send('count');
      return Number(await reply);
    },
    async close() {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.disconnect();
      await exited;
    },
  };
}
