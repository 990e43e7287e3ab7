/**
 * The routes of a lazily loaded adapter (lazy-adapter.ts): the gateway's server takes routes before
 * it listens, the adapter that serves them is loaded after. Each declared route is added at once
 * with a handler and header check that hand over to the loaded adapter's own; until it has added
 * its route, a request is answered 503 before its body is read (the platform retries).
 */
import type { PlatformContext, RouteOptions, RouteRequest, RouteResponse } from '@hermes/protocol';

/** A route the loaded adapter will add, declared before it is loaded. */
export interface LazyRoute {
  method: 'GET' | 'POST';
  path: string;
  /**
   * The route's server options, as the loaded adapter gives them; its header check (`verify`) is
   * the loaded adapter's own and is not declared here.
   */
  options?: Omit<RouteOptions, 'verify'>;
}

type Handler = (request: RouteRequest) => Promise<RouteResponse>;

interface Slot {
  route: LazyRoute;
  handler?: Handler;
  verify?: RouteOptions['verify'];
}

export interface LazyRoutes {
  /** the `route` of the context the loaded adapter is created with: fills the declared route's slot */
  route: PlatformContext['route'];
  /** the declared routes the loaded adapter did not add (a mismatch between the two parts) */
  missing(): string[];
}

const NOT_READY: RouteResponse = {
  status: 503,
  body: { ok: false, error: 'not ready' },
  headers: { 'retry-after': '1' },
};

const label = (method: string, path: string) => `${method} ${path}`;

/** The server options that must be the same in the declaration and in the loaded adapter's route. */
function sameOptions(declared: LazyRoute['options'], given: RouteOptions | undefined): boolean {
  return (
    declared?.browser === given?.browser &&
    declared?.multipart === given?.multipart &&
    declared?.bodyLimit === given?.bodyLimit
  );
}

/** Adds the declared routes to the gateway (`context.route`) and returns the loaded adapter's side. */
export function declareLazyRoutes(
  platform: string,
  context: PlatformContext,
  routes: readonly LazyRoute[],
): LazyRoutes {
  const slots = routes.map((route): Slot => ({ route }));
  for (const slot of slots) {
    const { method, path, options } = slot.route;
    context.route(
      method,
      path,
      (request) => (slot.handler === undefined ? Promise.resolve(NOT_READY) : slot.handler(request)),
      {
        ...options,
        verify: (request) => (slot.handler === undefined ? NOT_READY : (slot.verify?.(request) ?? null)),
      },
    );
  }
  return {
    route(method, path, handler, options) {
      const slot = slots.find((s) => s.route.method === method && s.route.path === path);
      if (slot === undefined) {
        throw new Error(`${platform}: route ${label(method, path)} was not declared when the adapter was created`);
      }
      if (!sameOptions(slot.route.options, options)) {
        throw new Error(
          `${platform}: route ${label(method, path)} was declared with other options (browser, multipart, bodyLimit)`,
        );
      }
      slot.verify = options?.verify;
      slot.handler = handler;
    },
    missing: () => slots.filter((s) => s.handler === undefined).map((s) => label(s.route.method, s.route.path)),
  };
}
