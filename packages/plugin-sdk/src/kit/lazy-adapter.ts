/**
 * A platform adapter whose module (and the platform SDK it imports) is loaded when the platform
 * starts, not when its plugin is imported. The gateway creates every adapter before its server
 * listens and starts them once /health answers; an SDK that takes a large part of a second to
 * load (discord.js, Bolt) would otherwise delay the gateway being healthy by that much.
 *
 * `create()` returns `lazyAdapter(context, { ... })` with what the gateway needs before the start,
 * known without the SDK: the name, the capabilities, the formatter, which optional methods the
 * adapter has and the routes it adds. `load` imports the real adapter's module and creates it
 * (`(await import('./adapter.js')).createXAdapter(context)`), on start() or on the first call
 * that needs it (a send before the start). A load that fails leaves the platform in `error` with
 * the reason, as /health shows it; the gateway runs on. The loaded adapter must match what was
 * declared (name, capabilities, methods, routes), or the load fails saying what differs. The
 * adapters' loads run one after another, each in a task of its own (`inTurn`).
 */
import type {
  InboundSink,
  PlatformAdapter,
  PlatformCapabilities,
  PlatformContext,
  PlatformState,
  SendResult,
} from '@hermes/protocol';
import { capabilitiesFor, readSendRateLimit } from '../send-rate.js';
import { declareLazyRoutes, type LazyRoute } from './lazy-routes.js';

/** The optional methods of a PlatformAdapter a lazy adapter can declare. */
export const OPTIONAL_ADAPTER_METHODS = [
  'sendMedia',
  'sendTyping',
  'askApproval',
  'sendButtons',
  'closeApproval',
  'edit',
  'react',
] as const;

export type OptionalAdapterMethod = (typeof OPTIONAL_ADAPTER_METHODS)[number];

export interface LazyAdapterOptions {
  /** the platform's name (`telegram`) */
  name: string;
  /** the declared capabilities, as given to `createPlatformKit` (its `sendRate` dropped for a loopback `apiUrl`) */
  capabilities: PlatformCapabilities;
  /** the platform API's base URL, as given to `createPlatformKit` */
  apiUrl: string;
  /** PlatformAdapter.holdsConnection, as the loaded adapter says it */
  holdsConnection?: boolean;
  /** Markdown to the platform's format: `format()` before the adapter is loaded too */
  format(markdown: string): string;
  /** the optional methods the loaded adapter has (exactly those) */
  methods: readonly OptionalAdapterMethod[];
  /** the routes the loaded adapter adds when it is created (exactly those) */
  routes?: readonly LazyRoute[];
  /** imports the adapter's module and creates it with the context given (its `route` takes the declared routes) */
  load(context: PlatformContext): Promise<PlatformAdapter>;
}

export type { LazyRoute } from './lazy-routes.js';

/** How long a load waits for the one before it to end before it begins anyway. */
const LOAD_TURN_MS = 2_000;
let previousLoad: Promise<unknown> = Promise.resolve();

/**
 * Runs the adapters' loads one after another, each in a task of its own: loading an SDK blocks the
 * thread (a CommonJS tree is evaluated at once), and the server, listening by then, answers the
 * requests that came in meanwhile between two loads rather than after all of them. A load that has
 * not ended within LOAD_TURN_MS no longer holds the next one back.
 */
function inTurn<T>(load: () => Promise<T>): Promise<T> {
  const before = previousLoad;
  const mine = (async () => {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([before, new Promise((resolve) => (timer = setTimeout(resolve, LOAD_TURN_MS)))]);
    clearTimeout(timer);
    await new Promise((resolve) => setImmediate(resolve));
    return load();
  })();
  previousLoad = mine.catch(() => undefined);
  return mine;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** JSON with every object's keys sorted: the same text for equal data, whatever the key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** What differs between the declaration and the loaded adapter, or null. */
function mismatch(
  declared: Pick<PlatformAdapter, 'name' | 'capabilities' | 'holdsConnection'>,
  methods: readonly OptionalAdapterMethod[],
  loaded: PlatformAdapter,
  missingRoutes: readonly string[],
): string | null {
  if (loaded.name !== declared.name) return `its name is ${loaded.name}`;
  if (canonical(loaded.capabilities) !== canonical(declared.capabilities)) return 'its capabilities differ';
  if ((loaded.holdsConnection ?? false) !== (declared.holdsConnection ?? false)) return 'holdsConnection differs';
  const has = OPTIONAL_ADAPTER_METHODS.filter((m) => typeof loaded[m] === 'function');
  const expected = OPTIONAL_ADAPTER_METHODS.filter((m) => methods.includes(m));
  if (has.join() !== expected.join()) return `it has the methods [${has.join(', ')}], not [${expected.join(', ')}]`;
  if (missingRoutes.length > 0) return `it did not add the declared route ${missingRoutes.join(', ')}`;
  return null;
}

/** Creates the adapter without loading its module; see the file's comment. */
export function lazyAdapter(context: PlatformContext, options: LazyAdapterOptions): PlatformAdapter {
  const { name, methods } = options;
  const capabilities = capabilitiesFor(options.capabilities, options.apiUrl, readSendRateLimit(context.settings, name));
  const routes = declareLazyRoutes(name, context, options.routes ?? []);
  const declared = {
    name,
    capabilities,
    ...(options.holdsConnection === undefined ? {} : { holdsConnection: options.holdsConnection }),
  };
  let loading: Promise<PlatformAdapter> | undefined;
  let loaded: PlatformAdapter | undefined;
  let state: PlatformState = { state: 'disconnected', since: Date.now() };
  /** moved on by each stop(): a start() still loading when its platform is stopped starts nothing */
  let generation = 0;

  const loadOnce = async (): Promise<PlatformAdapter> => {
    let adapter: PlatformAdapter;
    try {
      adapter = await inTurn(() => options.load({ ...context, route: routes.route }));
    } catch (error) {
      throw new Error(`its adapter could not be loaded: ${messageOf(error)}`, { cause: error });
    }
    const wrong = mismatch(declared, methods, adapter, routes.missing());
    if (wrong !== null) throw new Error(`the loaded adapter does not match its declaration: ${wrong}`);
    loaded = adapter;
    return adapter;
  };
  /** The loaded adapter (loaded once); a failed load leaves the platform in `error` with the reason. */
  const load = (): Promise<PlatformAdapter> => {
    if (loading === undefined) {
      loading = loadOnce();
      loading.catch((error: unknown) => {
        state = { state: 'error', since: Date.now(), error: messageOf(error) };
        context.logger.error({ error: messageOf(error) }, `${name}: ${messageOf(error)}`);
      });
    }
    return loading;
  };

  /**
   * A call through the loaded adapter (straight through once it is loaded); a failed load answers a
   * failed send with its reason.
   */
  function sending<A extends unknown[]>(
    call: (adapter: PlatformAdapter, ...args: A) => Promise<SendResult> | undefined,
    method: OptionalAdapterMethod | 'send',
  ): (...args: A) => Promise<SendResult> {
    const through = (inner: PlatformAdapter, args: A): Promise<SendResult> =>
      call(inner, ...args) ?? Promise.reject(new Error(`${name}: the loaded adapter has no ${method}`));
    return (...args) => {
      if (loaded !== undefined) return through(loaded, args);
      return load().then(
        (inner) => through(inner, args),
        (error: unknown): SendResult => ({ ok: false, error: 'transient', message: `${name}: ${messageOf(error)}` }),
      );
    };
  }

  const adapter: PlatformAdapter = {
    ...declared,
    async start(sink: InboundSink) {
      const run = generation;
      if (loaded === undefined) state = { state: 'connecting', since: Date.now() };
      let inner: PlatformAdapter;
      try {
        inner = await load();
      } catch (error) {
        state = { state: 'error', since: Date.now(), error: messageOf(error) }; // logged once, by load()
        return;
      }
      if (run === generation) await inner.start(sink);
    },
    async stop() {
      generation += 1;
      const inner = await loading?.catch(() => undefined);
      if (inner !== undefined) await inner.stop();
      else state = { state: 'stopped', since: Date.now() };
    },
    send: sending((a, message: Parameters<PlatformAdapter['send']>[0]) => a.send(message), 'send'),
    format: options.format,
    status: () => (loaded === undefined ? { ...state } : loaded.status()),
  };
  type Arg<M extends OptionalAdapterMethod> = Parameters<NonNullable<PlatformAdapter[M]>>[0];
  const has = (method: OptionalAdapterMethod) => methods.includes(method);
  if (has('sendMedia')) adapter.sendMedia = sending((a, media: Arg<'sendMedia'>) => a.sendMedia?.(media), 'sendMedia');
  if (has('askApproval'))
    adapter.askApproval = sending((a, prompt: Arg<'askApproval'>) => a.askApproval?.(prompt), 'askApproval');
  if (has('sendButtons'))
    adapter.sendButtons = sending((a, message: Arg<'sendButtons'>) => a.sendButtons?.(message), 'sendButtons');
  if (has('edit')) adapter.edit = sending((a, message: Arg<'edit'>) => a.edit?.(message), 'edit');
  if (has('react')) adapter.react = sending((a, reaction: Arg<'react'>) => a.react?.(reaction), 'react');
  if (has('sendTyping')) {
    adapter.sendTyping = async (chatId, threadId) => (await load()).sendTyping?.(chatId, threadId);
  }
  if (has('closeApproval')) {
    adapter.closeApproval = async (chatId, messageId, text) => (await load()).closeApproval?.(chatId, messageId, text);
  }
  return adapter;
}
