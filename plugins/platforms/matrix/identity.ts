/**
 * Who the bot is and what the homeserver offers, asked once the server answers: `whoami` (the
 * token's user, checked against MATRIX_USER_ID when set), the display name (mentions by name) and
 * `/versions` (whether media is fetched through the authenticated v1.11 endpoints).
 */
import type { Logger } from '@hermes/protocol';
import { apiPath, isRecord, MatrixApiError, type MatrixClient } from './client.js';

export interface BotIdentity {
  userId: string;
  /** the bot's display name, when it has one (a mention by name counts) */
  displayName: string | undefined;
  /** the server speaks Matrix 1.11: media through /_matrix/client/v1/media/download */
  authenticatedMedia: boolean;
}

/** The localpart of a user id (`@hermes:example.org` → `hermes`). */
export const localpart = (userId: string): string => userId.slice(1).split(':')[0] ?? userId;

export async function resolveIdentity(
  client: MatrixClient,
  configured: string | undefined,
  logger: Logger,
  signal: AbortSignal,
): Promise<BotIdentity> {
  const whoami = await client.request('GET', '/_matrix/client/v3/account/whoami', { signal });
  const userId = isRecord(whoami) && typeof whoami.user_id === 'string' ? whoami.user_id : undefined;
  if (userId === undefined) throw new Error('whoami answered without a user_id');
  if (configured !== undefined && configured !== userId) {
    throw new Error(`MATRIX_ACCESS_TOKEN belongs to ${userId}, not MATRIX_USER_ID ${configured}`);
  }
  let displayName: string | undefined;
  try {
    const profile = await client.request('GET', apiPath('/_matrix/client/v3/profile/{}/displayname', userId), {
      signal,
    });
    const name = isRecord(profile) ? profile.displayname : undefined;
    displayName = typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
  } catch (error) {
    if (!(error instanceof MatrixApiError) || error.status === null) throw error;
    logger.debug({ error: error.message }, 'matrix: the bot has no display name; mentions by user id only');
  }
  let authenticatedMedia = false;
  try {
    const versions = await client.request('GET', '/_matrix/client/versions', { signal });
    const list = isRecord(versions) && Array.isArray(versions.versions) ? versions.versions : [];
    authenticatedMedia = list.some((v) => typeof v === 'string' && /^v1\.(1[1-9]|[2-9]\d)$/.test(v));
  } catch (error) {
    if (!(error instanceof MatrixApiError) || error.status === null) throw error;
  }
  logger.info({ userId, authenticatedMedia }, `matrix: signed in as ${userId}`);
  return { userId, displayName, authenticatedMedia };
}
