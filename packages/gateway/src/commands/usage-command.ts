/**
 * `/usage`: this session's messages and tokens (the model's reported usage, summed per session in
 * the store), the user's tokens and cost today (the day counter, kept only where a daily token or
 * cost limit applies to them; cost only where `access.prices` names the model), their tier's
 * limits and what is left, and the provider account's limits where the provider reports them
 * (OpenRouter), asked on demand with a short timeout; a part that cannot be read says so, never
 * failing the command.
 */
import type { AccountProfile } from '@hermes/agent';
import type { AsyncStore } from '@hermes/store';
import { type AccessSettings, limitsFor, type Tier } from '../access/access-settings.js';
import { DAY_MS, MINUTE_MS } from '../access/usage-limits.js';
import type { CommandContext } from './commands.js';

export interface UsageCommandPorts {
  sessions: Pick<AsyncStore['sessions'], 'activeByKey'>;
  transcripts: Pick<AsyncStore['transcripts'], 'count' | 'tokens'>;
  /** the owner of an identity (linked accounts count as one user) */
  ownerOf(identity: string): Promise<string>;
  /** the identity key of a command's sender */
  identityOf(ctx: CommandContext): string;
  /** access.*: tiers, limits and prices (absent: nothing is limited) */
  access?: AccessSettings | undefined;
  counters: Pick<AsyncStore['usageCounters'], 'get'>;
  /** the limits' clock */
  now(): number;
  /** the session's model id and its provider's profile (absent: no account part) */
  sessionModel?(sessionId: string | null): Promise<{ model: string; profile: AccountProfile | undefined }>;
  /** one line on the account's limits at the provider (agent's accountLimitsText) */
  accountLimits?(profile: AccountProfile): Promise<string>;
}

const n = (x: number) => x.toLocaleString('en-US');
const money = (x: number) => String(Math.round(x * 10_000) / 10_000);

async function sessionLine(ports: UsageCommandPorts, sessionId: string | null): Promise<string> {
  if (sessionId === null) return 'This session: none yet.';
  const [count, tokens] = await Promise.all([ports.transcripts.count(sessionId), ports.transcripts.tokens(sessionId)]);
  const p = tokens?.prompt_tokens ?? 0;
  const c = tokens?.completion_tokens ?? 0;
  return `This session: ${count} messages, ${n(p + c)} tokens (prompt ${n(p)} + completion ${n(c)}).`;
}

async function userLines(ports: UsageCommandPorts, ctx: CommandContext, model: string | null): Promise<string[]> {
  const tier: Tier = ctx.tier ?? 'admin';
  const { access } = ports;
  if (!access) return ['Today: not counted (no daily limit applies here).', 'Your limits: none.'];
  const user = await ports.ownerOf(ports.identityOf(ctx));
  const limits = limitsFor(access, user, tier);
  const now = ports.now();
  const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
  const daily = limits.tokensPerDay !== undefined || limits.costPerDay !== undefined;
  const [day, minute] = await Promise.all([
    daily ? ports.counters.get(user, 'day', dayStart) : undefined,
    limits.turnsPerMinute !== undefined ? ports.counters.get(user, 'minute', now - MINUTE_MS + 1) : undefined,
  ]);
  const tokens = day?.tokens ?? 0;
  const cost = day?.cost ?? 0;
  const priced = model !== null && access.prices[model] !== undefined;
  const today = daily
    ? `Today (UTC): ${n(tokens)} tokens${priced || limits.costPerDay !== undefined ? `, cost ${money(cost)}` : ''}.`
    : 'Today: not counted (no daily token or cost limit applies to you).';
  const parts: string[] = [];
  if (limits.tokensPerDay !== undefined)
    parts.push(`${n(limits.tokensPerDay)} tokens a day (${n(Math.max(0, limits.tokensPerDay - tokens))} left)`);
  if (limits.costPerDay !== undefined)
    parts.push(`${money(limits.costPerDay)} cost a day (${money(Math.max(0, limits.costPerDay - cost))} left)`);
  if (limits.turnsPerMinute !== undefined) {
    const left = Math.max(0, limits.turnsPerMinute - (minute?.turns ?? 0));
    parts.push(`${limits.turnsPerMinute} turns a minute (${left} left)`);
  }
  return [today, `Your limits (${tier} tier): ${parts.length > 0 ? parts.join(', ') : 'none'}.`];
}

async function accountLine(ports: UsageCommandPorts, profile: AccountProfile | undefined): Promise<string | null> {
  if (!profile || !ports.accountLimits) return null;
  try {
    return await ports.accountLimits(profile);
  } catch (err) {
    return `Account (${profile.name}): could not be read (${err instanceof Error ? err.message : String(err)}).`;
  }
}

export async function usageCommand(ports: UsageCommandPorts, ctx: CommandContext): Promise<string> {
  const session = await ports.sessions.activeByKey(ctx.sessionKey);
  const sessionId = session?.id ?? null;
  const chosen = ports.sessionModel ? await ports.sessionModel(sessionId).catch(() => null) : null;
  // the account is asked while the store answers the rest
  const [account, first, rest] = await Promise.all([
    accountLine(ports, chosen?.profile),
    sessionLine(ports, sessionId),
    userLines(ports, ctx, chosen?.model ?? null),
  ]);
  return [first, ...rest, ...(account === null ? [] : [account])].join('\n');
}
