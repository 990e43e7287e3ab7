/**
 * signal-cli's JSON-RPC 2.0 endpoint (`POST /api/v1/rpc` of `daemon --http`) over the global fetch:
 * one request a call with the account in its params (a multi-account daemon needs it, a
 * single-account one ignores it), a timeout, and an error answer turned into an RpcError carrying
 * signal-cli's code (-1 user error, -3 I/O, -4 untrusted identity, -5 rate limit) and its `data`.
 */

type Json = Record<string, unknown>;

export const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** signal-cli's own error codes (SignalJsonRpcCommandHandler) */
export const RPC_USER_ERROR = -1;
export const RPC_IO_ERROR = -3;
export const RPC_UNTRUSTED_KEY = -4;
export const RPC_RATE_LIMIT = -5;

/** A call the daemon answered with an error (`code` set), or that got no usable answer (`code` null, `status` the HTTP status or null). */
export class RpcError extends Error {
  readonly code: number | null;
  readonly status: number | null;
  /** the error's `data` (signal-cli puts the send results in `data.response`) */
  readonly data: unknown;
  constructor(message: string, code: number | null, status: number | null, data?: unknown) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
    this.status = status;
    this.data = data;
  }
}

export interface RpcClient {
  /** calls `method` with `params` (the account added); resolves with the `result` */
  call(method: string, params?: Json, signal?: AbortSignal): Promise<unknown>;
}

const describeCause = (error: unknown): string => {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = cause instanceof Error ? (cause as { code?: unknown }).code : undefined;
  if (typeof code === 'string') return code;
  return cause instanceof Error ? cause.message : String(cause);
};

/** Creates the client; nothing is sent before a call. */
export function createRpcClient(options: { httpUrl: string; account: string; timeoutMs: number }): RpcClient {
  let nextId = 1;
  return {
    async call(method, params = {}, signal) {
      const what = `${method} (POST /api/v1/rpc)`;
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const id = nextId++;
      let response: Response;
      try {
        response = await fetch(`${options.httpUrl}/api/v1/rpc`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, account: options.account } }),
          signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
        });
      } catch (error) {
        if (signal?.aborted) throw error;
        const why = timeout.aborted ? `no answer within ${options.timeoutMs} ms` : describeCause(error);
        throw new RpcError(`${what}: ${why}`, null, null);
      }
      const text = await response.text();
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = undefined;
      }
      if (!response.ok || !isRecord(body)) {
        const said = response.ok ? 'an answer that is not a JSON-RPC object' : text.slice(0, 120);
        throw new RpcError(`${what} answered HTTP ${response.status}: ${said}`, null, response.status);
      }
      if (isRecord(body.error)) {
        const code = typeof body.error.code === 'number' ? body.error.code : null;
        const message = typeof body.error.message === 'string' ? body.error.message.slice(0, 300) : 'no message';
        throw new RpcError(`${what} failed (code ${code ?? '?'}): ${message}`, code, response.status, body.error.data);
      }
      return body.result;
    },
  };
}
