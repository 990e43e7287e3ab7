/**
 * One MCP server's connection: connect (spawn or HTTP, initialize, tools/list) within the connect
 * timeout, reconnect with backoff after the server goes away, one reconnect on a call made while
 * disconnected, calls with the per-call timeout and the turn's AbortSignal. Nothing here throws out
 * of the background paths; a call's failure is an Error naming the server.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { type Logger, terminateThenKill } from '@hermes/protocol';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpCallResult } from './result-text.js';
import { type McpSdk, mcpSdk, type TrackedStdio } from './sdk.js';
import { DEFAULT_MCP_BACKOFF, type McpBackoff, type McpServerSettings, type McpServerState } from './types.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes sure a stdio child is gone: the SDK's close() ends stdin and signals on unref'd timers, so a
 * process that exits meanwhile would leave it running; SIGTERM, then SIGKILL after 2 s.
 */
async function reap(transport: Transport): Promise<void> {
  const pid = 'childPid' in transport ? (transport as Transport & TrackedStdio).childPid : null;
  if (pid === null || !isAlive(pid)) return;
  await terminateThenKill(
    {
      signal: (sig) => {
        try {
          process.kill(pid, sig);
          return true;
        } catch {
          return false;
        }
      },
      alive: () => isAlive(pid),
    },
    { graceMs: 2000, pollMs: 25 },
  );
}

export interface McpTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

function toMcpTool(t: { name: string; description?: string | undefined; inputSchema: object }): McpTool {
  return {
    name: t.name,
    ...(t.description ? { description: t.description } : {}),
    inputSchema: t.inputSchema as Record<string, unknown>,
  };
}

export interface McpConnectionOptions {
  settings: McpServerSettings;
  logger: Logger;
  redact: (text: string) => string;
  clientVersion: string;
  backoff?: McpBackoff;
  /** after every successful connect, with the server's tools */
  onTools: (tools: McpTool[]) => void;
}

function message(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // the SDK's StreamableHTTPError carries the HTTP status as `code`
  const code: unknown = (err as { code?: unknown }).code;
  return typeof code === 'number' && code >= 100 && code < 600 ? `HTTP ${code}: ${err.message}` : err.message;
}

/** Did the call fail because the server is gone (closed pipe, refused or reset connection)? */
function isGone(sdk: McpSdk, err: unknown): boolean {
  if (err instanceof sdk.McpError) return err.code === sdk.ErrorCode.ConnectionClosed;
  const text = message(err);
  return /fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|other side closed|not connected|EPIPE/i.test(text);
}

export class McpConnection {
  state: McpServerState;
  error: string | undefined;
  readonly #o: McpConnectionOptions;
  readonly #backoff: McpBackoff;
  #client: Client | null = null;
  #transportInUse: Transport | null = null;
  #attempt: Promise<boolean> | null = null;
  #retryTimer: NodeJS.Timeout | null = null;
  #failures = 0;
  #closed = false;
  /** aborted by close(): an attempt in flight stops at once (its child is killed) */
  readonly #closing = new AbortController();
  /** resolves once the first attempt ended (ready() waits on it) */
  readonly firstAttempt: Promise<void>;
  #firstDone: () => void = () => {};

  constructor(options: McpConnectionOptions) {
    this.#o = options;
    this.#backoff = options.backoff ?? DEFAULT_MCP_BACKOFF;
    const { settings } = options;
    this.state = !settings.enabled ? 'disabled' : settings.problem ? 'failed' : 'disconnected';
    if (settings.problem) this.error = settings.problem;
    this.firstAttempt = new Promise((resolve) => {
      this.#firstDone = resolve;
    });
    if (this.state !== 'disconnected') this.#firstDone();
  }

  get name(): string {
    return this.#o.settings.name;
  }

  /** Connects in the background; failures retry with backoff until close(). */
  start(): void {
    if (this.state !== 'disconnected') return;
    void this.connect().then((ok) => {
      if (!ok) this.#scheduleRetry();
    });
  }

  /** One attempt (shared by concurrent callers): true when connected. */
  connect(): Promise<boolean> {
    if (this.state === 'connected') return Promise.resolve(true);
    if (this.state === 'disabled' || this.#o.settings.problem || this.#closed) return Promise.resolve(false);
    if (this.#attempt) return this.#attempt;
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    this.#attempt = this.#connectOnce().finally(() => {
      this.#attempt = null;
      this.#firstDone();
    });
    return this.#attempt;
  }

  async #connectOnce(): Promise<boolean> {
    const { settings, logger } = this.#o;
    this.state = 'connecting';
    let sdk: McpSdk;
    try {
      sdk = await mcpSdk();
    } catch (err) {
      this.state = 'failed';
      this.error = `the MCP SDK did not load: ${message(err)}`;
      return false;
    }
    const client = new sdk.Client(
      { name: 'hermes', version: this.#o.clientVersion },
      {
        // notifications/tools/list_changed: the SDK lists the tools again, they are registered anew
        listChanged: {
          tools: {
            onChanged: (err, tools) => {
              if (err || !tools || this.#client !== client) return;
              this.#o.onTools(tools.map(toMcpTool));
            },
          },
        },
      },
    );
    const transport = this.#transport(sdk);
    const deadline = AbortSignal.timeout(settings.connectTimeoutMs);
    const signal = AbortSignal.any([deadline, this.#closing.signal]);
    try {
      await client.connect(transport, { timeout: settings.connectTimeoutMs, signal });
      const tools: McpTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, {
          timeout: settings.connectTimeoutMs,
          signal,
        });
        for (const t of page.tools) tools.push(toMcpTool(t));
        cursor = page.nextCursor;
      } while (cursor);
      if (this.#closed) {
        await client.close().catch(() => {});
        return false;
      }
      client.onclose = () => this.#lost(client, 'the server closed the connection');
      this.#client = client;
      this.#transportInUse = transport;
      this.state = 'connected';
      this.error = undefined;
      this.#failures = 0;
      this.#o.onTools(tools);
      logger.info({ mcpServer: settings.name, tools: tools.length }, `MCP server ${settings.name} connected`);
      return true;
    } catch (err) {
      const reason = deadline.aborted
        ? `did not connect within ${settings.connectTimeoutMs / 1000} s`
        : this.#o.redact(message(err));
      this.state = 'failed';
      this.error = reason;
      this.#failures += 1;
      if (this.#closed)
        logger.debug({ mcpServer: settings.name }, `MCP server ${settings.name}: connecting stopped by shutdown`);
      else logger.warn({ mcpServer: settings.name }, `MCP server ${settings.name} failed to connect: ${reason}`);
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
      await reap(transport);
      return false;
    }
  }

  #transport(sdk: McpSdk): Transport {
    const { settings, logger, redact } = this.#o;
    const t = settings.transport;
    if (t.kind === 'http') {
      return new sdk.StreamableHTTPClientTransport(new URL(t.url), { requestInit: { headers: { ...t.headers } } });
    }
    const stdio = sdk.stdioTransport({
      command: t.command,
      args: [...t.args],
      env: { ...t.env },
      ...(t.cwd ? { cwd: t.cwd } : {}),
      stderr: 'pipe',
    });
    const stream = stdio.stderr;
    if (stream) {
      // stderr: 'pipe' makes it a PassThrough
      createInterface({ input: stream as Readable }).on('line', (line) => {
        if (line.trim() !== '') logger.info({ mcpServer: settings.name, stream: 'stderr' }, redact(line));
      });
    }
    return stdio;
  }

  #lost(client: Client, reason: string): void {
    if (this.#client !== client || this.#closed) return;
    this.#client = null;
    this.state = 'disconnected';
    this.error = reason;
    this.#o.logger.warn({ mcpServer: this.name }, `MCP server ${this.name}: ${reason}; reconnecting`);
    const transport = this.#transportInUse;
    this.#transportInUse = null;
    void client
      .close()
      .catch(() => {})
      .then(() => (transport ? reap(transport) : undefined));
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    if (this.#closed || this.#retryTimer || this.state === 'connected') return;
    const delay = Math.min(this.#backoff.initialMs * 2 ** Math.max(0, this.#failures - 1), this.#backoff.maxMs);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      void this.connect().then((ok) => {
        if (!ok) this.#scheduleRetry();
      });
    }, delay);
    this.#retryTimer.unref();
  }

  /** Calls a tool; while disconnected, tries one reconnect first. Throws an Error naming the server. */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallResult> {
    const { settings } = this.#o;
    if (this.state === 'disabled') throw new Error(`MCP server "${this.name}" is disabled`);
    if (!this.#client && !(await this.connect())) {
      throw new Error(
        `MCP server "${this.name}" is not connected and one reconnect failed: ${this.error ?? 'unknown'}`,
      );
    }
    const client = this.#client;
    if (!client) throw new Error(`MCP server "${this.name}" is not connected`);
    try {
      return (await client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout: settings.timeoutMs,
      })) as McpCallResult;
    } catch (err) {
      if (signal.aborted) throw err;
      const sdk = await mcpSdk();
      if (err instanceof sdk.McpError && err.code === sdk.ErrorCode.RequestTimeout) {
        throw new Error(`MCP server "${this.name}" did not answer ${tool} within ${settings.timeoutMs / 1000} s`);
      }
      if (isGone(sdk, err)) {
        this.#lost(client, `the server went away (${this.#o.redact(message(err))})`);
        throw new Error(
          `MCP server "${this.name}" went away during the call to ${tool} (${this.#o.redact(message(err))}); the next call reconnects`,
        );
      }
      throw new Error(`MCP server "${this.name}" failed on ${tool}: ${this.#o.redact(message(err))}`);
    }
  }

  /** Stops retrying and closes the client (a stdio child gets stdin closed, then SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.abort(new Error('shutting down'));
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
    await this.#attempt?.catch(() => false);
    const client = this.#client;
    const transport = this.#transportInUse;
    this.#client = null;
    this.#transportInUse = null;
    if (this.state !== 'disabled' && this.state !== 'failed') this.state = 'disconnected';
    await client?.close().catch(() => {});
    if (transport) await reap(transport);
  }
}
