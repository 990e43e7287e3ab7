/**
 * The worker thread of one gateway hook: imports its handler (jiti, as in the main thread before)
 * and runs it on each event the gateway posts. `hermes.send`, `hermes.runAgent` and
 * `hermes.logger` are message passing to the gateway. Whatever the handler does (throws, exits,
 * loops) happens on this thread: the gateway logs it and restarts the worker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createModuleImporter } from '@hermes/plugins';
import type {
  GatewayEventType,
  GatewayHookApi,
  GatewayHookHandler,
  HookAgentResult,
  HookSendResult,
  Logger,
} from '@hermes/protocol';
import { handleOf } from './load.js';
import {
  cloneable,
  type FromHookWorker,
  type HookLogLevel,
  type HookWorkerData,
  type ToHookWorker,
} from './worker-protocol.js';

const data = workerData as HookWorkerData;
const port = parentPort;
if (!port) throw new Error('hook-worker runs only as a worker thread');

const post = (message: FromHookWorker) => {
  try {
    port.postMessage(message);
  } catch {
    port.postMessage(cloneable(message));
  }
};

const LEVELS: readonly HookLogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

function workerLogger(bindings: Record<string, unknown>): Logger {
  const logger = { child: (more: Record<string, unknown>) => workerLogger({ ...bindings, ...more }) } as Logger;
  for (const level of LEVELS) {
    (logger as unknown as Record<string, unknown>)[level] = (a: unknown, b?: unknown) => {
      if (typeof a === 'string') post({ type: 'log', level, bindings, msg: a });
      else post({ type: 'log', level, bindings, obj: a, ...(typeof b === 'string' ? { msg: b } : {}) });
    };
  }
  return logger;
}

let nextCall = 1;
const calls = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

function call<T>(method: 'send' | 'runAgent', args: unknown[]): Promise<T> {
  const id = nextCall++;
  return new Promise<T>((resolve, reject) => {
    calls.set(id, { resolve: resolve as (v: unknown) => void, reject });
    post({ type: 'call', id, method, args });
  });
}

const api: GatewayHookApi = {
  name: data.name,
  home: data.home,
  logger: workerLogger({}),
  send: (target, text) => call<HookSendResult>('send', [target, text]),
  runAgent: (prompt, options = {}) => call<HookAgentResult>('runAgent', [prompt, options]),
};

async function load(): Promise<GatewayHookHandler | null> {
  try {
    const importer = await createModuleImporter(data.aliases);
    const handle = handleOf(await importer(data.handlerFile));
    if (handle) return handle;
    post({ type: 'load-failed', reason: `${data.handlerFile} exports no handle(eventType, context) function` });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    post({ type: 'load-failed', reason: `${data.handlerFile} failed to load: ${message}` });
  }
  return null;
}

const loading = load();
void loading.then((handle) => handle && post({ type: 'ready' }));

async function run(id: number, event: string, context: Record<string, unknown>): Promise<void> {
  const handle = await loading;
  if (!handle) return;
  try {
    await handle(event as GatewayEventType, context, api);
    post({ type: 'done', id });
  } catch (err) {
    post({ type: 'done', id, error: err instanceof Error ? err.message : String(err) });
  }
}

port.on('message', (message: ToHookWorker) => {
  if (message.type === 'ping') post({ type: 'pong' });
  else if (message.type === 'run') void run(message.id, message.event, message.context);
  else if (message.type === 'reply') {
    const pending = calls.get(message.id);
    calls.delete(message.id);
    if (!pending) return;
    if (message.ok) pending.resolve(message.result);
    else pending.reject(new Error(message.error ?? 'failed'));
  }
});
