// The rig of the extension-isolation files: a fake Telegram and model, a gateway's environment, its
// log's messages, and a hook or plugin written into a HERMES_HOME.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { stringify } from 'yaml';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.js';
import { useFakeOpenAI } from '../../helpers/use-fake-openai.js';

const TOKEN = '123456789:AAHfaketokenfaketokenfaketoken5678';

/** Registers the fakes for the calling file (beforeAll/afterAll); every model answer is `still here`. */
export function useIsolationRig(): { tg: () => FakeTelegram; env: (home: string) => Record<string, string> } {
  const openai = useFakeOpenAI();
  let tg: FakeTelegram | undefined;
  beforeAll(async () => {
    tg = await startFakeTelegram({ token: TOKEN, longPollCapMs: 200 });
  });
  afterAll(async () => {
    await tg?.close();
  });
  beforeEach(() => {
    tg?.reset();
    openai.server.reset();
    openai.server.respond(() => ({ text: 'still here' }));
  });
  const fake = (): FakeTelegram => {
    if (tg === undefined) throw new Error('the fake Telegram is not started');
    return tg;
  };
  return {
    tg: fake,
    env: (home) => ({
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_API_ROOT: fake().apiRoot,
      TELEGRAM_ALLOWED_USERS: '42',
    }),
  };
}

/** The messages of the gateway's log (the console is off when stderr is not a terminal). */
export function logMessages(home: string): string[] {
  const file = join(home, 'logs', 'gateway.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => String((JSON.parse(l) as { msg?: unknown }).msg));
}
export const logged = (home: string, text: string) => logMessages(home).some((m) => m.includes(text));

export function writeHook(home: string, name: string, events: string[], handler: string): void {
  const dir = join(home, 'hooks', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'HOOK.yaml'), stringify({ name, description: `test hook ${name}`, events }));
  writeFileSync(join(dir, 'handler.ts'), handler);
}

export function writePlugin(home: string, name: string, code: string): void {
  const dir = join(home, 'plugins', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), stringify({ name, version: '1.0.0', description: `test plugin ${name}` }));
  writeFileSync(join(dir, 'index.js'), code);
}

/** GET /health, with how long it took. */
export async function health(url: string): Promise<{ ms: number; status: number; body: Record<string, unknown> }> {
  const started = Date.now();
  const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5_000) });
  return { ms: Date.now() - started, status: res.status, body: (await res.json()) as Record<string, unknown> };
}
