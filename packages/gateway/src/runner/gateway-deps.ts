/** What a gateway is built from: its settings (config.yaml's gateway part) and its dependencies. */
import {
  createTurnService,
  type MemoryManager,
  type ModelClient,
  type SessionModels,
  type SkillCommands,
  type SpeechSynthesizer,
  type ToolRegistry,
  type TurnConfig,
  type TurnService,
} from '@hermes/agent';
import type { HookBus } from '@hermes/plugins';
import type { GroupSessions, Logger, PlatformFactory } from '@hermes/protocol';
import type { AccessSettings } from '../access/access-settings.js';
import { tierToolAccess } from '../access/tool-access.js';
import type { MediaSourceOptions } from '../delivery/media/media-source.js';
import type { MediaSettings } from '../media/inbound-media.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { Env } from '../pipeline/allowlist.js';
import type { ResetPolicy } from '../sessions/reset-policy.js';
import type { SessionGuard } from '../sessions/session-guard.js';
import type { BusyMode } from '../sessions/session-lanes.js';
import type { GatewayStore } from '../store/gateway-store.js';
import type { DisplaySettings } from '../turn/turn-display.js';
import type { VoiceMode } from '../turn/voice-mode.js';
import type { LaunchPorts } from './launch.js';

export interface GatewaySettings {
  /** the turns' settings, config.yaml's as every surface has them (`turnConfig` of @hermes/agent) */
  turn: TurnConfig;
  busyMode: BusyMode;
  maxConcurrentRuns: number;
  freeResponseChats: readonly string[];
  /** gateway.group_context_messages (absent: 20) */
  groupContextMessages?: number;
  /** gateway.channel_prompts: by platform:chat_id (or platform:chat_id:thread_id) */
  channelPrompts?: Readonly<Record<string, string>>;
  /** gateway.channel_toolsets: keyed as channelPrompts */
  channelToolsets?: Readonly<Record<string, readonly string[]>>;
  /** gateway.channel_skills: keyed as channelPrompts */
  channelSkills?: Readonly<Record<string, readonly string[]>>;
  groupSessions: GroupSessions;
  resetPolicy: ResetPolicy;
  platformSettings: Readonly<Record<string, Readonly<Record<string, unknown>> & { enabled?: boolean | undefined }>>;
  cacheDir: string;
  /** a gateway hook handler running longer than this is logged as hanging (default 30 s) */
  hookTimeoutMs?: number;
  /** outbound media: answers' `MEDIA:` lines become attachments checked with these (absent: they stay text) */
  outboundMedia?: MediaSourceOptions;
  /** media.* and stt.*: files users send (absent: files are not passed to the model) */
  media?: GatewayMediaSettings;
  /** approvals.timeout_s: a dangerous command nobody answers within this is denied (default 120 s) */
  approvalTimeoutMs?: number;
  /** agent.clarify_timeout_s: a clarify question nobody answers within this returns "no answer" (default 180 s) */
  clarifyTimeoutMs?: number;
  /** gateway.batch_ms: one user's messages in one chat within this are one turn (default 0 here: off) */
  batchMs?: number;
  /** display.streaming, stream_interval_ms, reactions, tool_progress (default: all off) */
  display?: DisplaySettings;
  /** access.*: tiers, their tools and limits (absent: everyone is admin, nothing is limited) */
  access?: AccessSettings;
  /** quick_commands: `/name` aliases (absent: none) */
  quickCommands?: Readonly<Record<string, string>>;
  /** tts.voice_answers: the voice mode of chats that did not choose with /voice (default auto) */
  voiceAnswers?: VoiceMode;
}

export interface GatewayMediaSettings extends MediaSettings {
  /** media.cache_days: cached files older than this are removed */
  cacheDays: number;
  /** media.daily_upload_mb in bytes: what one user may store a day (absent: no quota; strangers never) */
  dailyUploadBytes?: number;
}

export interface GatewayDeps {
  settings: GatewaySettings;
  env: Env;
  logger: Logger;
  hooks: HookBus;
  tools: ToolRegistry;
  client: ModelClient;
  /** the state store of either backend (store/gateway-store.ts: `gatewayStore(asyncStore, …)`) */
  store: GatewayStore;
  platforms: readonly PlatformFactory[];
  pluginCommands: () => ReadonlyMap<string, { description: string; handler: (args: string) => unknown }>;
  pluginSummary: () => string;
  setHomeChannel: (platform: string, chatId: string) => void;
  /**
   * Claims a platform's instance key (its token) machine-wide before the adapter is created; a
   * refusal keeps the platform off with the reason in /health. Absent: no claim (tests).
   */
  claimPlatform?: (platform: string, key: string) => { ok: true; release(): void } | { ok: false; reason: string };
  /**
   * Starts the platforms and resumes unfinished rows (absent: `launchPlatforms`, one instance). A
   * cluster's node (cluster/cluster-node.ts) starts connection-holding platforms under a lease.
   */
  launch?: (ports: LaunchPorts) => Promise<void>;
  /** one run per session across instances (a cluster's session leases); absent: lanes are enough */
  sessionGuard?: SessionGuard;
  /**
   * The gateway's metrics (`GET /metrics`); absent, the gateway makes its own. Given, the same
   * object's observers can be handed to the HookBus and ModelClient built before the gateway.
   */
  metrics?: GatewayMetrics;
  /** the model providers and each session's model (`/model`, model.fallback); absent: `client` and settings.turn.model */
  models?: SessionModels;
  /** the turn service (absent: one is built from the settings, tools, client and hooks) */
  turns?: TurnService;
  now?: () => number;
  /** the tier of a user identity (access tiers); absent: every gateway user is `user` */
  tierOf?: (identity: string, owner: string) => 'admin' | 'user';
  /** the process's secret redactor: applied to every answer before it is stored or sent (default: none) */
  redact?: (text: string) => string;
  /** memory.provider around each turn (absent: no memory block, prefetch or sync) */
  memory?: MemoryManager;
  /** the skills invocable as `/name` in chats (absent: none) */
  skills?: SkillCommands;
  /** text to speech (tts.*): voice answers in chats (absent: text only) */
  speech?: SpeechSynthesizer;
  /** the usage limits' clock (default `now`; `gateway run`: HERMES_LIMITS_CLOCK_*, test-only) */
  limitsNow?: () => number;
}

/** The gateway's turn service: config's turn settings with the gateway's client, tools, hooks and store. */
export function gatewayTurnService(deps: GatewayDeps): TurnService {
  const { access } = deps.settings;
  return createTurnService(deps.settings.turn, {
    ...deps,
    ...(access ? { toolAccess: tierToolAccess(access) } : {}),
    platformToolsets: platformToolsets(deps.settings.platformSettings),
  });
}

/** gateway.platforms.<name>.toolsets, for the platforms that set one. */
export function platformToolsets(platforms: GatewaySettings['platformSettings']): Record<string, readonly string[]> {
  const out: Record<string, readonly string[]> = {};
  for (const [name, block] of Object.entries(platforms)) {
    const toolsets = block.toolsets;
    if (Array.isArray(toolsets)) out[name] = toolsets.filter((t): t is string => typeof t === 'string');
  }
  return out;
}
