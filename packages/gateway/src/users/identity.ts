/**
 * The identity a gateway job is for, from its `who` (docs/security.md, "Users apart"): a chat's
 * and the web chat's sender (`<platform>:<userId>`), `api:default` for the API platform (one
 * `API_SERVER_KEY`), `hook:<name>` for a gateway hook's `runAgent`, `cron` for a scheduled run.
 * Per-user data is keyed by the identity's owner (the store's identity links).
 */
import { API_IDENTITY, identityKey } from '@hermes/protocol';

/** The identity of a scheduled run (its creator is not known as a user identity). */
export const CRON_IDENTITY = 'cron';

/** The identity key of a job's `who` (platform and user id as the surfaces set them). */
export function identityOfWho(platform: string, userId: string): string {
  if (platform === 'api') return API_IDENTITY;
  if (platform === 'cron') return CRON_IDENTITY;
  if (platform === 'gateway') return userId; // a hook's runAgent: `hook:<name>`
  return identityKey(platform, userId);
}
