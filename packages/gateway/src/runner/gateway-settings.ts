/**
 * The gateway's settings from config.yaml: one mapping for `gateway run`, the contract suite and the
 * benchmarks (`buildGateway` uses it; tests that build a `Gateway` by hand call it too).
 */
import type { TurnConfig } from '@hermes/agent';
import type { HermesConfig } from '@hermes/config';
import { isLoopbackHost } from '@hermes/protocol';
import { accessSettings } from '../access/access-settings.js';
import { sttSettings } from '../media/stt-settings.js';
import type { GatewaySettings } from './gateway-deps.js';

type PlatformSettings = GatewaySettings['platformSettings'];

export function gatewaySettings(
  config: HermesConfig,
  run: {
    turn: TurnConfig;
    cacheDir: string;
    platformSettings?: PlatformSettings;
    sttCommand?: string | undefined;
    /** the process environment (XAI_API_KEY for stt.provider xai) */
    env?: Readonly<Record<string, string | undefined>>;
  },
): GatewaySettings {
  return {
    turn: run.turn,
    busyMode: config.display.busy_input_mode,
    maxConcurrentRuns: config.gateway.max_concurrent_runs,
    freeResponseChats: config.gateway.free_response_chats,
    groupContextMessages: config.gateway.group_context_messages,
    channelPrompts: config.gateway.channel_prompts,
    channelToolsets: config.gateway.channel_toolsets,
    channelSkills: config.gateway.channel_skills,
    groupSessions: config.gateway.group_sessions,
    resetPolicy: config.session_reset,
    platformSettings: run.platformSettings ?? config.gateway.platforms,
    cacheDir: run.cacheDir,
    hookTimeoutMs: config.gateway.hook_timeout_s * 1000,
    media: {
      maxBytes: config.media.max_bytes,
      cacheDays: config.media.cache_days,
      dailyUploadBytes: config.media.daily_upload_mb * 1024 * 1024,
      stt: sttSettings(config, run.env ?? {}, run.sttCommand),
    },
    approvalTimeoutMs: config.approvals.timeout_s * 1000,
    clarifyTimeoutMs: config.agent.clarify_timeout_s * 1000,
    batchMs: config.gateway.batch_ms,
    display: {
      streaming: config.display.streaming,
      streamIntervalMs: config.display.stream_interval_ms,
      reactions: config.display.reactions,
      toolProgress: config.display.tool_progress,
      runtimeFooter: config.display.runtime_metadata_footer,
    },
    access: accessSettings(config),
    quickCommands: config.quick_commands,
    voiceAnswers: config.tts.voice_answers,
  };
}

/**
 * Whether the web chat (the bundled `web` platform) runs: with the console (`gateway.console.enabled`,
 * default on when the gateway listens on loopback), unless `gateway.platforms.web.enabled` says
 * otherwise. Applied to the platform settings the gateway hands its adapters.
 */
export function withWebChatSwitch(
  platforms: PlatformSettings,
  consoleEnabled: boolean | undefined,
  host: string,
): PlatformSettings {
  const web = platforms.web ?? {};
  if (web.enabled !== undefined) return platforms;
  return { ...platforms, web: { ...web, enabled: consoleEnabled ?? isLoopbackHost(host) } };
}
