/**
 * The openai SDK, the keep-alive undici pool and the direct completion POST, loaded on first use:
 * together they cost about 0.4 s of a gateway's start-up on a 2-core machine, and no model request
 * is made before the gateway is listening. `warmModelSdk()` starts the load early (the gateway
 * calls it once it is up), so the first message does not pay it either.
 */
import type OpenAIDefault from 'openai';
import type { Agent } from 'undici';
import type { postCompletion } from './post-completion.js';

export interface ModelSdk {
  OpenAI: typeof OpenAIDefault;
  postCompletion: typeof postCompletion;
  /** one keep-alive pool per process for every model client (idle sockets do not hold the process open) */
  agent: Agent;
  /** a fetch over that pool for the SDK (streaming requests), giving up when an answer stops for `idleMs` */
  fetchWith(options: { idleMs: number }): typeof fetch;
}

let loading: Promise<ModelSdk> | null = null;

/**
 * The SDK and the pool; loaded once per process, the same promise for every caller. The pool's
 * connect timeout is the first caller's (one model.connect_timeout_s per process).
 */
export function loadModelSdk(options: { connectTimeoutMs?: number } = {}): Promise<ModelSdk> {
  loading ??= Promise.all([import('openai'), import('./fast-fetch.js'), import('./post-completion.js')]).then(
    ([openai, fast, post]) => {
      const agent = fast.createModelAgent(options);
      return {
        OpenAI: openai.default,
        postCompletion: post.postCompletion,
        agent,
        fetchWith: ({ idleMs }) => fast.createFastFetch(agent, { bodyTimeoutMs: idleMs }).fetch,
      };
    },
  );
  return loading;
}

/** Starts loading the SDK in the background; a failure shows on the first request instead. */
export function warmModelSdk(): void {
  loadModelSdk().catch(() => {});
}
