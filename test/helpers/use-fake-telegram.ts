import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type FakeTelegram, type FakeTelegramOptions, startFakeTelegram } from '../fakes/telegram-server.js';

/** A bot token the fake Telegram accepts (its numeric prefix is the bot's id). */
export const TEST_TELEGRAM_TOKEN = '123456789:AAHfaketokenfaketokenfaketoken1234';

/**
 * Starts one fake Telegram Bot API for the test file (the test token, short long polls), resets it
 * before each test, closes it after.
 */
export function useFakeTelegram(options: Partial<FakeTelegramOptions> = {}): { readonly server: FakeTelegram } {
  const handle: { server: FakeTelegram | null } = { server: null };
  beforeAll(async () => {
    handle.server = await startFakeTelegram({ token: TEST_TELEGRAM_TOKEN, longPollCapMs: 200, ...options });
  });
  afterAll(async () => {
    await handle.server?.close();
  });
  beforeEach(() => handle.server?.reset());
  return {
    get server(): FakeTelegram {
      if (!handle.server) throw new Error('the fake Telegram server is not started yet');
      return handle.server;
    },
  };
}

/** The environment of a `gateway run` on the fake Telegram and a fake model: the home, its model, the allowed users. */
export function telegramGatewayEnv(options: {
  home: string;
  modelUrl: string;
  telegram: FakeTelegram;
  allowedUsers: string;
}): Record<string, string> {
  return {
    HERMES_HOME: options.home,
    OPENAI_BASE_URL: options.modelUrl,
    HERMES_INFERENCE_MODEL: 'test-model',
    TELEGRAM_BOT_TOKEN: TEST_TELEGRAM_TOKEN,
    TELEGRAM_API_ROOT: options.telegram.apiRoot,
    TELEGRAM_ALLOWED_USERS: options.allowedUsers,
  };
}
