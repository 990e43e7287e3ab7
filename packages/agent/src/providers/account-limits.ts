/**
 * The provider account's limits for `/usage`, where the provider reports them: OpenRouter answers
 * `GET <base>/key` with the key's credit limit, usage, what is left and its rate limit; other
 * providers report nothing (said so). Asked on demand with a short timeout; never throws: a failure
 * is a line saying why.
 */
import type { ResolvedProfile } from './model-providers.js';

/** How long `/usage` waits for the provider. */
export const ACCOUNT_LIMITS_TIMEOUT_MS = 3_000;

export type AccountProfile = Pick<ResolvedProfile, 'name' | 'baseUrl' | 'apiKey' | 'apiKeyEnv' | 'headers'>;

export interface AccountLimitsOptions {
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** OpenRouter by name, or any profile whose base URL is openrouter.ai's (a `custom` one pointed there). */
export function reportsAccountLimits(profile: Pick<AccountProfile, 'name' | 'baseUrl'>): boolean {
  if (profile.name === 'openrouter') return true;
  try {
    return new URL(profile.baseUrl).hostname === 'openrouter.ai';
  } catch {
    return false;
  }
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
/** credits as OpenRouter counts them (US dollars), without float noise */
const credits = (n: number) => String(Math.round(n * 10_000) / 10_000);

/** OpenRouter's `data` of GET /key, as one line. */
export function openRouterLimitsText(name: string, data: Record<string, unknown>): string {
  const limit = num(data.limit);
  const usage = num(data.usage);
  const left = num(data.limit_remaining);
  const parts: string[] = [];
  if (limit === null)
    parts.push(`${usage === null ? 'usage unknown' : `used ${credits(usage)} credits`}, no credit limit`);
  else {
    const used = usage === null ? '' : `used ${credits(usage)} of `;
    parts.push(`${used}a ${credits(limit)} credit limit${left === null ? '' : `, ${credits(left)} left`}`);
  }
  const rate = data.rate_limit as { requests?: unknown; interval?: unknown } | undefined;
  const requests = num(rate?.requests);
  if (requests !== null && typeof rate?.interval === 'string')
    parts.push(`rate limit ${requests} requests per ${rate.interval}`);
  return `Account (${name}): ${parts.join('; ')}.`;
}

/** One line on the account's limits at `profile`'s provider. */
export async function accountLimitsText(profile: AccountProfile, options: AccountLimitsOptions = {}): Promise<string> {
  if (!reportsAccountLimits(profile)) return `Account limits: not reported by ${profile.name}.`;
  if (profile.apiKey === '')
    return `Account (${profile.name}): not read: ${profile.apiKeyEnv || 'its key'} is not set.`;
  const timeoutMs = options.timeoutMs ?? ACCOUNT_LIMITS_TIMEOUT_MS;
  try {
    const res = await (options.fetch ?? fetch)(`${profile.baseUrl.replace(/\/+$/, '')}/key`, {
      headers: { ...profile.headers, authorization: `Bearer ${profile.apiKey}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) {
      await res.body?.cancel();
      return `Account (${profile.name}): could not be read (HTTP ${res.status}).`;
    }
    const body = (await res.json()) as { data?: unknown };
    if (typeof body?.data !== 'object' || body.data === null)
      return `Account (${profile.name}): could not be read (no data in the answer).`;
    return openRouterLimitsText(profile.name, body.data as Record<string, unknown>);
  } catch (err) {
    const why =
      err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')
        ? `no answer within ${timeoutMs / 1000} s`
        : err instanceof SyntaxError
          ? 'the answer is not JSON'
          : err instanceof Error && err.cause instanceof Error
            ? err.cause.message
            : String(err);
    return `Account (${profile.name}): could not be read (${why}).`;
  }
}
