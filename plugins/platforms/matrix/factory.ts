/**
 * The PlatformFactory registered by the plugin: the credentials check and the adapter. The adapter
 * needs no SDK (fetch only), so it is created directly; what the gateway reads before it (the
 * capabilities) is in capabilities.ts.
 */
import { envValue } from '@hermes/plugin-sdk';
import type { PlatformFactory } from '@hermes/protocol';
import { createMatrixAdapter } from './adapter.js';
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
  create: (context) => createMatrixAdapter(context),
};
