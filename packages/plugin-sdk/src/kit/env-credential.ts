/** A platform factory's credential checks when one environment variable (a bot token) is the credential. */
import type { PlatformFactory } from '@hermes/protocol';
import { envValue } from '../web-kit/web-api.js';

/**
 * `hasCredentials`: the variable `name` is set and not blank; `instanceKey`: its trimmed value (two
 * gateways with the same token would steal each other's updates).
 */
export function envCredential(name: string): Required<Pick<PlatformFactory, 'hasCredentials' | 'instanceKey'>> {
  return {
    hasCredentials: (env) => envValue(env, name) !== undefined,
    instanceKey: (env) => envValue(env, name),
  };
}
