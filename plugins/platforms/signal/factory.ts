/** The PlatformFactory registered by the plugin: credentials check and adapter construction. */
import { envValue } from '@hermes/plugin-sdk';
import type { PlatformFactory } from '@hermes/protocol';
import { createSignalAdapter } from './adapter.js';
import { PLATFORM, readSignalSettings, type SignalSettings } from './settings.js';

/**
 * Signal is available when SIGNAL_HTTP_URL (signal-cli's daemon) and SIGNAL_ACCOUNT (the bot's
 * number) are set. The account is the instance key: two gateways reading one account's event
 * stream would both answer.
 */
export const signalFactory: PlatformFactory<SignalSettings> = {
  name: PLATFORM,
  hasCredentials: (env) =>
    envValue(env, 'SIGNAL_HTTP_URL') !== undefined && envValue(env, 'SIGNAL_ACCOUNT') !== undefined,
  instanceKey: (env) => envValue(env, 'SIGNAL_ACCOUNT'),
  readSettings: readSignalSettings,
  create: (context) => createSignalAdapter(context),
};
