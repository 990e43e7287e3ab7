/**
 * The PlatformFactory registered by the plugin: the credentials check, and an adapter whose module
 * (adapter.ts and the sync loop, sending and media code it imports) is loaded when the platform
 * starts, not when the plugin is imported: settings are checked at creation, without it
 * (plugin-sdk's `lazyAdapter`). Matrix needs no SDK (fetch only); the shape is the other platforms'.
 */
import { envValue, lazyAdapter } from '@hermes/plugin-sdk';
import type { PlatformFactory } from '@hermes/protocol';
import { MATRIX_CAPABILITIES } from './capabilities.js';
import { markdownToMatrixHtml } from './format/markdown-to-html.js';
import { type MatrixSettings, PLATFORM, readMatrixSettings } from './settings.js';

/**
 * Matrix is available when MATRIX_HOMESERVER_URL and MATRIX_ACCESS_TOKEN are set. The token is the
 * instance key: two gateways syncing with one token would both answer.
 */
export const matrixFactory: PlatformFactory<MatrixSettings> = {
  name: PLATFORM,
  hasCredentials: (env) =>
    envValue(env, 'MATRIX_HOMESERVER_URL') !== undefined && envValue(env, 'MATRIX_ACCESS_TOKEN') !== undefined,
  instanceKey: (env) => envValue(env, 'MATRIX_ACCESS_TOKEN'),
  readSettings: readMatrixSettings,
  create: (context) => {
    const settings = readMatrixSettings(context.settings, context.env);
    return lazyAdapter(context, {
      name: PLATFORM,
      capabilities: MATRIX_CAPABILITIES,
      apiUrl: settings.homeserverUrl,
      holdsConnection: true,
      format: markdownToMatrixHtml,
      methods: ['sendMedia', 'sendTyping', 'edit', 'react'],
      load: async (loadContext) => (await import('./adapter.js')).createMatrixAdapter(loadContext),
    });
  },
};
