/**
 * The openai SDK and the direct completion POST, loaded on first use: together they cost about
 * 0.4 s of a gateway's start-up on a 2-core machine, and no model request is made before the
 * gateway is listening. `warmModelSdk()` starts the load early (the gateway calls it once it is
 * up), so the first message does not pay it either.
 */
import { createHttpFetch, createKeepAliveAgents, type KeepAliveAgents } from '@hermes/protocol';
import type OpenAIDefault from 'openai';
import type { postCompletion } from './post-completion.js';

/** Connections per origin (the gateway runs at most max_concurrent_runs model calls at once). */
const CONNECTIONS_PER_ORIGIN = 64;

export interface ModelSdk {
  OpenAI: typeof OpenAIDefault;
  postCompletion: typeof postCompletion;
  /**
   * one pair of keep-alive node:http(s) agents per process for every model client (idle sockets
   * do not hold the process open)
   */
  agents: KeepAliveAgents;
  /** a fetch over those agents for the SDK (streaming requests) */
  fetch: typeof fetch;
}

let loading: Promise<ModelSdk> | null = null;

/** The SDK and the agents; loaded once per process, the same promise for every caller. */
export function loadModelSdk(): Promise<ModelSdk> {
  loading ??= Promise.all([import('openai'), import('./post-completion.js')]).then(([openai, post]) => {
    const agents = createKeepAliveAgents(CONNECTIONS_PER_ORIGIN);
    return { OpenAI: openai.default, postCompletion: post.postCompletion, agents, fetch: createHttpFetch(agents) };
  });
  return loading;
}

/** Starts loading the SDK in the background; a failure shows on the first request instead. */
export function warmModelSdk(): void {
  loadModelSdk().catch(() => {});
}
