/**
 * `hermes doctor`'s check of a platform whose factory checks its own credentials: a `doctor`
 * method beside the PlatformFactory's (email logs in over IMAP and says hello over SMTP, which no
 * HTTP probe of doctor-platforms.ts can do). The plugin loads what it needs for the check itself.
 */
import type { HermesConfig } from '@hermes/config';
import type { Check } from './doctor-model.js';

/** how long a platform's own check may take (two logins, each with its own shorter timeouts) */
export const SELF_CHECK_TIMEOUT_MS = 30_000;

/** A platform factory with its own doctor check (`@hermes/platform-email`'s EmailFactory). */
export interface SelfCheckingFactory {
  doctor(
    settings: Readonly<Record<string, unknown>>,
    env: Readonly<Record<string, string | undefined>>,
  ): Promise<{ ok: boolean; detail: string }>;
}

/** The registered factory when it brings its own check, else undefined. */
export function selfCheckingFactory(factory: unknown): SelfCheckingFactory | undefined {
  const own =
    typeof factory === 'object' && factory !== null && typeof (factory as { doctor?: unknown }).doctor === 'function';
  return own ? (factory as SelfCheckingFactory) : undefined;
}

/** Runs the factory's check with the platform's settings; a setting it refuses fails the check naming it. */
export async function selfCheck(
  name: string,
  factory: SelfCheckingFactory,
  config: HermesConfig,
  env: NodeJS.ProcessEnv,
): Promise<Check> {
  const settings = ((config.gateway.platforms as Record<string, unknown>)[name] ?? {}) as Record<string, unknown>;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${SELF_CHECK_TIMEOUT_MS / 1000} s`)),
      SELF_CHECK_TIMEOUT_MS,
    );
  });
  try {
    const result = await Promise.race([factory.doctor(settings, env), timeout]);
    return { name: `platform ${name}`, status: result.ok ? 'ok' : 'fail', detail: result.detail };
  } catch (err) {
    return { name: `platform ${name}`, status: 'fail', detail: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}
