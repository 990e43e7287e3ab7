/**
 * `hermes doctor`'s platform checks: each chat platform whose token is set is asked once who the
 * token belongs to (Telegram `getMe`, Discord `GET /users/@me`, Slack `auth.test`, WhatsApp
 * `GET /<phone number id>`; Signal: whether signal-cli's daemon answers `GET /api/v1/check`; Matrix
 * `GET /_matrix/client/v3/account/whoami`), at the API the
 * gateway would use (the same settings and variables). A token that is refused, or an API that
 * cannot be reached within PLATFORM_PROBE_TIMEOUT_MS, fails the check; the token is never printed.
 */
import type { HermesConfig } from '@hermes/config';
import type { Check } from './doctor-model.js';

export const PLATFORM_PROBE_TIMEOUT_MS = 5_000;

type Settings = Record<string, unknown>;

const setting = (settings: Settings, key: string): string | undefined => {
  const value = settings[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

const trimmed = (value: string | undefined): string | undefined =>
  value !== undefined && value.trim() !== '' ? value.trim() : undefined;

/** The API answered, and said no to the token (as opposed to not answering). */
class Refused extends Error {}

interface Probe {
  /** where the request goes (shown: no token in it) */
  where: string;
  request(signal: AbortSignal): Promise<Response>;
  /** who the token belongs to, from a 2xx answer; throws with the API's own reason otherwise */
  who(body: unknown): string;
  /** the API's own reason in a non-2xx answer, where it is not a plain `description`/`message`/`error` string */
  refusal?(body: unknown): string | undefined;
  /** what is missing before any call can be made (another variable the platform needs) */
  missing?: string;
  /** the whole ok detail, where there is no token to accept (Signal's daemon) */
  okDetail?: string;
}

function telegramProbe(token: string, settings: Settings, env: NodeJS.ProcessEnv): Probe {
  const root = (trimmed(env.TELEGRAM_API_ROOT) ?? setting(settings, 'api_root') ?? 'https://api.telegram.org').replace(
    /\/+$/,
    '',
  );
  return {
    where: root,
    request: (signal) => fetch(`${root}/bot${token}/getMe`, { method: 'POST', signal }),
    who: (body) => {
      const b = body as { ok?: boolean; result?: { username?: string }; description?: string };
      if (b.ok !== true) throw new Refused(b.description ?? 'getMe was refused');
      return `getMe: @${b.result?.username ?? '?'}`;
    },
  };
}

function discordProbe(token: string, settings: Settings, env: NodeJS.ProcessEnv): Probe {
  const base = (setting(settings, 'api_base') ?? trimmed(env.DISCORD_API_BASE) ?? 'https://discord.com/api').replace(
    /\/+$/,
    '',
  );
  return {
    where: base,
    request: (signal) => fetch(`${base}/v10/users/@me`, { headers: { authorization: `Bot ${token}` }, signal }),
    who: (body) => `GET /users/@me: ${(body as { username?: string }).username ?? '?'}`,
  };
}

function slackProbe(token: string, settings: Settings, env: NodeJS.ProcessEnv): Probe {
  const raw = setting(settings, 'api_url') ?? trimmed(env.SLACK_API_URL) ?? 'https://slack.com/api/';
  const url = raw.endsWith('/') ? raw : `${raw}/`;
  return {
    where: url,
    request: (signal) =>
      fetch(`${url}auth.test`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
        signal,
      }),
    who: (body) => {
      const b = body as { ok?: boolean; user?: string; team?: string; error?: string };
      if (b.ok !== true) throw new Refused(b.error ?? 'auth.test was refused');
      return `auth.test: ${b.user ?? '?'} in ${b.team ?? '?'}`;
    },
  };
}

function whatsappProbe(token: string, settings: Settings, env: NodeJS.ProcessEnv): Probe {
  const base = (
    setting(settings, 'api_url') ??
    trimmed(env.WHATSAPP_API_URL) ??
    'https://graph.facebook.com/v21.0'
  ).replace(/\/+$/, '');
  const phoneNumberId = trimmed(env.WHATSAPP_PHONE_NUMBER_ID) ?? '';
  const unset = ['WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_APP_SECRET', 'WHATSAPP_VERIFY_TOKEN'].filter(
    (name) => trimmed(env[name]) === undefined,
  );
  return {
    where: base,
    ...(unset.length === 0 ? {} : { missing: `${unset.join(', ')} not set` }),
    request: (signal) =>
      fetch(`${base}/${encodeURIComponent(phoneNumberId)}?fields=display_phone_number,verified_name`, {
        headers: { authorization: `Bearer ${token}` },
        signal,
      }),
    who: (body) => {
      const b = body as { display_phone_number?: string; verified_name?: string };
      return `phone number ${b.display_phone_number ?? '?'} (${b.verified_name ?? '?'})`;
    },
    refusal: (body) => {
      const error = (body as { error?: { message?: unknown; code?: unknown } } | null)?.error;
      return typeof error?.message === 'string' ? error.message : undefined;
    },
  };
}

function signalProbe(account: string, settings: Settings, env: NodeJS.ProcessEnv): Probe {
  const base = (setting(settings, 'http_url') ?? trimmed(env.SIGNAL_HTTP_URL) ?? '').replace(/\/+$/, '');
  return {
    where: base,
    ...(base === '' ? { missing: 'SIGNAL_HTTP_URL not set' } : {}),
    okDetail: `signal-cli's daemon answers at ${base} (account ${account})`,
    request: (signal) => fetch(`${base}/api/v1/check`, { signal }),
    who: () => 'GET /api/v1/check',
  };
}

function matrixProbe(token: string, settings: Settings, env: NodeJS.ProcessEnv): Probe {
  const base = (setting(settings, 'homeserver_url') ?? trimmed(env.MATRIX_HOMESERVER_URL) ?? '').replace(/\/+$/, '');
  const expected = trimmed(env.MATRIX_USER_ID);
  return {
    where: base,
    ...(base === '' ? { missing: 'MATRIX_HOMESERVER_URL not set' } : {}),
    request: (signal) =>
      fetch(`${base}/_matrix/client/v3/account/whoami`, { headers: { authorization: `Bearer ${token}` }, signal }),
    who: (body) => {
      const userId = (body as { user_id?: unknown }).user_id;
      if (typeof userId !== 'string') throw new Refused('whoami answered without a user_id');
      if (expected !== undefined && userId !== expected) {
        throw new Refused(`it belongs to ${userId}, not MATRIX_USER_ID ${expected}`);
      }
      return `whoami: ${userId}`;
    },
    refusal: (body) => {
      const b = body as { errcode?: unknown; error?: unknown } | null;
      if (typeof b?.errcode !== 'string') return undefined;
      return typeof b.error === 'string' ? `${b.errcode}: ${b.error}` : b.errcode;
    },
  };
}

const PROBES: Record<string, { tokenEnv: string; probe: typeof telegramProbe }> = {
  telegram: { tokenEnv: 'TELEGRAM_BOT_TOKEN', probe: telegramProbe },
  discord: { tokenEnv: 'DISCORD_BOT_TOKEN', probe: discordProbe },
  slack: { tokenEnv: 'SLACK_BOT_TOKEN', probe: slackProbe },
  whatsapp: { tokenEnv: 'WHATSAPP_ACCESS_TOKEN', probe: whatsappProbe },
  signal: { tokenEnv: 'SIGNAL_ACCOUNT', probe: signalProbe },
  matrix: { tokenEnv: 'MATRIX_ACCESS_TOKEN', probe: matrixProbe },
};

/** Whether doctor knows how to ask this platform about its token. */
export const probesPlatform = (name: string): boolean => name in PROBES;

function reason(err: unknown): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return `no answer within ${PLATFORM_PROBE_TIMEOUT_MS / 1000} s`;
  }
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : null;
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : (cause?.message ?? (err instanceof Error ? err.message : String(err)));
}

/** One call with the platform's token; `null` when its token is not set (the platform is off). */
export async function probePlatform(name: string, config: HermesConfig, env: NodeJS.ProcessEnv): Promise<Check | null> {
  const entry = PROBES[name];
  const token = entry ? trimmed(env[entry.tokenEnv]) : undefined;
  if (!entry || token === undefined) return null;
  const settings = ((config.gateway.platforms as Record<string, unknown>)[name] ?? {}) as Settings;
  const probe = entry.probe(token, settings, env);
  const hide = (text: string) => text.split(token).join('<token>');
  if (probe.missing !== undefined) return { name: `platform ${name}`, status: 'fail', detail: probe.missing };
  try {
    const res = await probe.request(AbortSignal.timeout(PLATFORM_PROBE_TIMEOUT_MS));
    const text = await res.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: said below with the status
    }
    if (!res.ok) {
      const said = (body as { description?: string; message?: string; error?: string } | null) ?? {};
      const why = probe.refusal?.(body) ?? said.description ?? said.message ?? said.error ?? text.slice(0, 120);
      return {
        name: `platform ${name}`,
        status: 'fail',
        detail: hide(`${probe.where} refused the token: HTTP ${res.status} ${why}`),
      };
    }
    if (probe.okDetail !== undefined) return { name: `platform ${name}`, status: 'ok', detail: probe.okDetail };
    return { name: `platform ${name}`, status: 'ok', detail: hide(`token accepted (${probe.who(body)})`) };
  } catch (err) {
    return {
      name: `platform ${name}`,
      status: 'fail',
      detail: hide(
        err instanceof Refused
          ? `${probe.where} refused the token: ${err.message}`
          : `cannot reach ${probe.where}: ${reason(err)}`,
      ),
    };
  }
}
