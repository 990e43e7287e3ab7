/**
 * The PlatformFactory registered by the plugin: the credentials check, and an adapter that loads
 * Bolt (adapter.ts) when the platform starts, not when the plugin is imported: settings are checked
 * and the HTTP events route added at creation, without the SDK (plugin-sdk's `lazyAdapter`).
 */
import { lazyAdapter } from '@hermes/plugin-sdk';
import type { PlatformFactory } from '@hermes/protocol';
import { SLACK_CAPABILITIES } from './capabilities.js';
import { markdownToMrkdwn } from './format/markdown-to-mrkdwn.js';
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
  create: (context) => {
    const settings = readSlackSettings(context.settings, context.env);
    const http = settings.mode === 'http' && settings.signingSecret !== undefined;
    return lazyAdapter(context, {
      name: PLATFORM,
      capabilities: SLACK_CAPABILITIES,
      apiUrl: settings.apiUrl,
      holdsConnection: settings.mode === 'socket',
      format: markdownToMrkdwn,
      methods: ['sendMedia', 'askApproval', 'sendButtons', 'closeApproval', 'edit', 'react'],
      routes: http ? [{ method: 'POST', path: settings.eventsPath }] : [],
      load: async (loadContext) => (await import('./adapter.js')).createSlackAdapter(loadContext),
    });
  },
};
