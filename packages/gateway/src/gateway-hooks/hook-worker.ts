/**
 * The gateway hooks' worker thread: imports every handler (jiti, as the main thread did before)
 * and runs them on the events the gateway posts. `hermes.send`, `hermes.runAgent` and
 * `hermes.logger` are message passing to the gateway. Whatever a handler does (throws, exits,
 * loops) happens on this thread: the gateway logs it and restarts the worker.
 */
import { parentPort, workerData } from 'node:worker_threads';
// the importer alone: the rest of @hermes/plugins (hook bus, manifests, yaml) is not needed here
import { createModuleImporter } from '@hermes/plugins/module-importer';
import type {
  GatewayEventType,
  GatewayHookApi,
  GatewayHookHandler,
  HookAgentResult,
  HookSendResult,
  Logger,
} from '@hermes/protocol';
import { handleOf } from './load.js';
import { readTrustedFile } from './trusted-file.js';
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

// process.exit ends only this thread; the gateway is told where it was called from first
const exit = process.exit.bind(process);
process.exit = ((code?: number) => {
  post({ type: 'exiting', stack: new Error('process.exit').stack ?? '' });
  return exit(code);
}) as typeof process.exit;

const LEVELS: readonly HookLogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

function workerLogger(hook: string, bindings: Record<string, unknown>): Logger {
  const logger = { child: (more: Record<string, unknown>) => workerLogger(hook, { ...bindings, ...more }) } as Logger;
  for (const level of LEVELS) {
    (logger as unknown as Record<string, unknown>)[level] = (a: unknown, b?: unknown) => {
      if (typeof a === 'string') post({ type: 'log', hook, level, bindings, msg: a });
      else post({ type: 'log', hook, level, bindings, obj: a, ...(typeof b === 'string' ? { msg: b } : {}) });
    };
  }
  return logger;
}

let nextCall = 1;
const calls = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

function call<T>(hook: string, method: 'send' | 'runAgent', args: unknown[]): Promise<T> {
  const id = nextCall++;
  return new Promise<T>((resolve, reject) => {
    calls.set(id, { resolve: resolve as (v: unknown) => void, reject });
    post({ type: 'call', id, hook, method, args });
  });
}

function apiFor(name: string): GatewayHookApi {
  return {
    name,
    home: data.home,
    logger: workerLogger(name, {}),
    send: (target, text) => call<HookSendResult>(name, 'send', [target, text]),
    runAgent: (prompt, options = {}) => call<HookAgentResult>(name, 'runAgent', [prompt, options]),
    trustedFile: (file) => readTrustedFile(data.home, data.trusted, file),
  };
}

const handlers = new Map<string, { handle: GatewayHookHandler; api: GatewayHookApi }>();

async function load(): Promise<void> {
  const importer = await createModuleImporter(data.aliases);
  for (const { name, handlerFile } of data.hooks) {
    try {
      const handle = handleOf(await importer(handlerFile));
      if (handle) handlers.set(name, { handle, api: apiFor(name) });
      else
        post({
          type: 'load-failed',
          hook: name,
          reason: `${handlerFile} exports no handle(eventType, context) function`,
        });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      post({ type: 'load-failed', hook: name, reason: `${handlerFile} failed to load: ${message}` });
    }
  }
  post({ type: 'ready' });
}

const loading = load();

async function run(id: number, hook: string, event: string, context: Record<string, unknown>): Promise<void> {
  await loading;
  const handler = handlers.get(hook);
  try {
    if (!handler) throw new Error(`gateway hook ${hook} is not loaded`);
    await handler.handle(event as GatewayEventType, context, handler.api);
    post({ type: 'done', id });
  } catch (err) {
    post({ type: 'done', id, error: err instanceof Error ? err.message : String(err) });
  }
}

port.on('message', (message: ToHookWorker) => {
  if (message.type === 'ping') post({ type: 'pong' });
  else if (message.type === 'run') void run(message.id, message.hook, message.event, message.context);
  else if (message.type === 'reply') {
    const pending = calls.get(message.id);
    calls.delete(message.id);
    if (!pending) return;
    if (message.ok) pending.resolve(message.result);
    else pending.reject(new Error(message.error ?? 'failed'));
  }
});
