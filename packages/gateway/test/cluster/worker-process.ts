// Spawns cluster-worker.ts in its own process and collects its JSON-line events.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const WORKER = fileURLToPath(new URL('./cluster-worker.ts', import.meta.url));

export interface WorkerEvent {
  event: string;
  at: number;
  pid: number;
  platform?: string;
  reason?: string;
}

export interface Worker {
  child: ChildProcess;
  events: WorkerEvent[];
  /** resolves with the first event matching, waiting up to `timeoutMs` */
  next(match: (e: WorkerEvent) => boolean, timeoutMs?: number): Promise<WorkerEvent>;
  exited: Promise<number | null>;
}

export function startWorker(args: string[]): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const events: WorkerEvent[] = [];
  const waiters: Array<() => void> = [];
  let stderr = '';
  let buffer = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdout?.on('data', (d: Buffer) => {
    buffer += d.toString();
    let nl = buffer.indexOf('\n');
    while (nl >= 0) {
      events.push(JSON.parse(buffer.slice(0, nl)) as WorkerEvent);
      buffer = buffer.slice(nl + 1);
      nl = buffer.indexOf('\n');
    }
    for (const w of waiters.splice(0)) w();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  exited.then(() => {
    for (const w of waiters.splice(0)) w();
  });
  return {
    child,
    events,
    exited,
    next(match, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`worker ${args.join(' ')}: no such event in ${timeoutMs} ms; stderr: ${stderr}`)),
          timeoutMs,
        );
        const check = () => {
          const found = events.find(match);
          if (found) {
            clearTimeout(timer);
            resolve(found);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            clearTimeout(timer);
            reject(new Error(`worker ${args.join(' ')} exited; events ${JSON.stringify(events)}; stderr: ${stderr}`));
          } else waiters.push(check);
        };
        check();
      });
    },
  };
}
