import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type FakeOpenAI, type FakeOpenAIOptions, startFakeOpenAI } from '../fakes/openai-server.js';

/** Starts one fake OpenAI server for the test file, resets it before each test, closes it after. */
export function useFakeOpenAI(options: FakeOpenAIOptions = {}): { readonly server: FakeOpenAI } {
  const handle: { server: FakeOpenAI | null } = { server: null };
  beforeAll(async () => {
    handle.server = await startFakeOpenAI(options);
  });
  afterAll(async () => {
    await handle.server?.close();
  });
  beforeEach(() => handle.server?.reset());
  return {
    get server(): FakeOpenAI {
      if (!handle.server) throw new Error('the fake OpenAI server is not started yet');
      return handle.server;
    },
  };
}
