// The Matrix adapter on the shared adapter harness (test/contract/adapter-harness.ts): the fake
// homeserver, an in-memory PlatformContext and the recorders.
import type { AdapterDeps } from '@hermes/plugin-sdk';
import { type AdapterHarness, adapterHarness } from '../../../../test/contract/adapter-harness.js';
import { type FakeMatrix, matrixPerson, startFakeMatrix } from '../../../../test/fakes/matrix-server.js';
import { createMatrixAdapter } from '../adapter.js';

export * from '../../../../test/contract/recorders.js';

export const ALICE = matrixPerson(1, 'Alice');
export const BOB = matrixPerson(2, 'Bob');

/** Starts a fake homeserver (its options as startFakeMatrix's) and hands out adapters wired to it. */
export async function startHarness(
  options: Parameters<typeof startFakeMatrix>[0] = {},
): Promise<AdapterHarness<FakeMatrix, AdapterDeps>> {
  const fake = await startFakeMatrix(options);
  return adapterHarness({
    platform: 'matrix',
    fake,
    env: { MATRIX_HOMESERVER_URL: fake.url, MATRIX_ACCESS_TOKEN: fake.accessToken, MATRIX_USER_ID: fake.bot.userId },
    settings: { request_timeout_ms: 5_000, sync_timeout_ms: 10_000 },
    routes: false,
    create: (context, deps) => createMatrixAdapter(context, deps),
  });
}
