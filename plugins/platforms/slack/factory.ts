/** The PlatformFactory registered by the plugin: credentials check and adapter construction. */
import type { PlatformFactory } from '@hermes/protocol';
import { createSlackAdapter } from './adapter.js';
import { PLATFORM } from './normalize.js';
import { readSlackSettings, type SlackSettings } from './settings.js';

const present = (value: string | undefined): boolean => typeof value === 'string' && value.trim() !== '';

/** Slack is available with SLACK_BOT_TOKEN plus SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP events). */
export const slackFactory: PlatformFactory<SlackSettings> = {
  name: PLATFORM,
  hasCredentials: (env) =>
    present(env.SLACK_BOT_TOKEN) && (present(env.SLACK_APP_TOKEN) || present(env.SLACK_SIGNING_SECRET)),
  instanceKey: (env) => (env.SLACK_APP_TOKEN ?? env.SLACK_BOT_TOKEN)?.trim() || undefined,
  readSettings: readSlackSettings,
  create: (context) => createSlackAdapter(context),
};
