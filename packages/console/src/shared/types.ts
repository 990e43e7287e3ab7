// The console API's shapes (docs: the console contract).

export interface SessionInfo {
  loggedIn: boolean;
  loginRequired: boolean;
  csrf: string | null;
  actor: string | null;
}

export interface PlatformState {
  state: string;
  since?: string | number;
  error?: string;
  reconnects: number;
}

export type Platforms = Record<string, PlatformState>;

export interface Overview {
  version: string;
  uptime_s: number;
  platforms: Platforms;
  cluster?: unknown;
}

export interface MetricsSample {
  at: number | string;
  received_per_s: number;
  answered_per_s: number;
  turn_p50_ms: number | null;
  errors_per_s: number;
}

export interface LogRecord {
  time: number | string;
  level: string | number;
  msg: string;
  component?: string;
}

export interface PendingPairing {
  platform: string;
  code: string;
  userId: string;
  userName?: string;
  createdAt: string | number;
  expiresAt: string | number;
}

export interface ApprovedUser {
  platform: string;
  userId: string;
  userName?: string;
  approvedAt: string | number;
}

export interface Pairing {
  pending: PendingPairing[];
  approved: ApprovedUser[];
  allowlists: Record<string, string[]>;
}

export interface SessionRow {
  id: string;
  key: string;
  sessionKey?: string;
  platform: string;
  title?: string | null;
  createdAt: string | number;
  updatedAt: string | number;
  endedAt?: string | number | null;
  running: boolean;
  messages: number;
}

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; content: string; tool_call_id: string; name?: string };

export interface PluginRow {
  name: string;
  kind: string;
  state: string;
  enabled: boolean;
  error?: string;
}

export interface PluginsInfo {
  plugins: PluginRow[];
  shellHooks: { event: string; command: string; state: string }[];
  gatewayHooks: { name: string; events: string[]; state: string; lastError?: string }[];
}

/** An item that needs the operator's consent before the gateway loads or runs it (`hermes trust list`). */
export interface TrustRow {
  id: string;
  what: string;
  state: 'approved' | 'new' | 'changed';
  sha256: string;
}

export interface TrustInfo {
  items: TrustRow[];
}
