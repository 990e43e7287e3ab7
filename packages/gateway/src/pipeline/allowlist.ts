/** Who may talk to the bot: the contract's allowlist variables, then users approved by pairing. */
export type Env = Readonly<Record<string, string | undefined>>;

function listed(value: string | undefined, userId: string): boolean {
  if (!value) return false;
  return value
    .split(',')
    .map((v) => v.trim())
    .some((v) => v === '*' || v === userId);
}

/** True when env allowlists admit the user: `<PLATFORM>_ALLOWED_USERS`, `GATEWAY_ALLOWED_USERS`, `GATEWAY_ALLOW_ALL_USERS`. */
export function allowedByEnv(platform: string, userId: string, env: Env): boolean {
  if (env.GATEWAY_ALLOW_ALL_USERS === 'true') return true;
  return listed(env[`${platform.toUpperCase()}_ALLOWED_USERS`], userId) || listed(env.GATEWAY_ALLOWED_USERS, userId);
}
