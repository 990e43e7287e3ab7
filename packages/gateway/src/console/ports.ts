/**
 * What the console reads and changes, as narrow ports wired by the app (apps/hermes/src/
 * console-setup.ts) from the runtime: every one optional, so an embedding without it shows less.
 */
import type { ChatMessage } from '@hermes/protocol';
import type { ApprovedUser, PendingPairing } from '@hermes/store';
import type { LogRing } from './log-ring.js';

export interface ConsolePairingPort {
  list(): Promise<{ pending: PendingPairing[]; approved: ApprovedUser[] }>;
  approve(
    platform: string,
    code: string,
  ): Promise<{ ok: true; userId: string } | { ok: false; reason: string; retryAt?: number }>;
  /** removes the pending request of this code; false when there is none */
  deny(platform: string, code: string): Promise<boolean>;
  revoke(platform: string, userId: string): Promise<boolean>;
}

export interface ConsoleSessionRow {
  id: string;
  sessionKey: string;
  platform: string;
  title: string | null;
  createdAt: number;
  updatedAt: number;
  endedAt: number | null;
}

export interface ConsoleSessionsPort {
  list(options: { limit: number }): Promise<ConsoleSessionRow[]>;
  get(id: string): Promise<ConsoleSessionRow | undefined>;
  /** session_search: the sessions whose transcripts match, best first */
  search(query: string, limit: number): Promise<string[]>;
  messages(id: string): Promise<ChatMessage[]>;
  count(id: string): Promise<number>;
}

export interface ConsolePluginRow {
  name: string;
  kind: string;
  state: string;
  enabled: boolean;
  error?: string;
}

export interface ConsolePluginsPort {
  plugins(): ConsolePluginRow[];
  shellHooks(): { event: string; command: string; state: string }[];
  gatewayHooks(): { name: string; events: string[]; state: string; lastError?: string }[];
  /** as `hermes plugins enable|disable`: writes config.yaml (a restart applies it) */
  setEnabled(name: string, enabled: boolean): void;
}

/** An item that needs the operator's consent before the gateway loads or runs it (`hermes trust list`). */
export interface ConsoleTrustRow {
  /** `<kind>:<name>`, e.g. `plugin:weather`, `boot:BOOT.md` */
  id: string;
  what: string;
  state: 'approved' | 'new' | 'changed';
  /** sha256 of its content now */
  sha256: string;
}

/** The operator's consent (HERMES_HOME/trust.json), as `hermes trust list|approve|revoke`; a restart applies it. */
export interface ConsoleTrustPort {
  list(): ConsoleTrustRow[];
  /** records the item's content as it is now; null when no item has this id */
  approve(id: string): ConsoleTrustRow | null;
  /** forgets the approval; false when there was none */
  revoke(id: string): boolean;
}

/** The console's options in `buildServer`'s `console`. */
export interface ConsoleServerOptions {
  /** the front-end's built files (index.html, chat.html, console.js…): `CONSOLE_DIST` of @hermes/console */
  dist: string;
  /** `gateway.console.token`: a login secret besides API_SERVER_KEY */
  token?: string;
  /**
   * True when a request on loopback is the operator without a login: only when the terminal tool
   * is off (with it, anything the model runs on this machine could reach the console). Default: a
   * login on every host.
   */
  loopbackOperator?: boolean;
  /** the one-time login links' file (`hermes console url`; absent: no links) */
  loginLinks?: string;
  pairing?: ConsolePairingPort;
  sessions?: ConsoleSessionsPort;
  plugins?: ConsolePluginsPort;
  trust?: ConsoleTrustPort;
  /** the ring buffer fed by the logger's tap */
  logs?: LogRing;
  /** the environment the allowlists are read from (`<PLATFORM>_ALLOWED_USERS`, `GATEWAY_ALLOWED_USERS`) */
  env?: Readonly<Record<string, string | undefined>>;
  /** how often the SSE stream checks the platforms and sends metrics (tests shorten them) */
  intervals?: { platformsMs?: number; metricsMs?: number };
}
