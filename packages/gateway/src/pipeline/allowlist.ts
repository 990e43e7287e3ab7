/** Who may talk to the bot: the contract's allowlist variables, then users approved by pairing. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The entries of a list's value, split once per value: the variables are read on every message (the
 * environment may change under a running gateway), their parse is kept (a few values, bounded).
 */
const parsed = new Map<string, ReadonlySet<string>>();
const PARSED_MAX = 64;

function listed(value: string | undefined, userId: string): boolean {
  if (!value) return false;
  let entries = parsed.get(value);
  if (entries === undefined) {
    entries = new Set(value.split(',').map((v) => v.trim()));
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(value, entries);
  }
  return entries.has('*') || entries.has(userId);
}

/** `<PLATFORM>_ALLOWED_USERS` of each platform name, made once */
const variables = new Map<string, string>();
function allowedUsersVariable(platform: string): string {
  let name = variables.get(platform);
  if (name === undefined) {
    name = `${platform.toUpperCase()}_ALLOWED_USERS`;
    if (variables.size < PARSED_MAX) variables.set(platform, name);
  }
  return name;
}

/** True when env allowlists admit the user: `<PLATFORM>_ALLOWED_USERS`, `GATEWAY_ALLOWED_USERS`, `GATEWAY_ALLOW_ALL_USERS`. */
export function allowedByEnv(platform: string, userId: string, env: Env): boolean {
  if (env.GATEWAY_ALLOW_ALL_USERS === 'true') return true;
  return listed(env[allowedUsersVariable(platform)], userId) || listed(env.GATEWAY_ALLOWED_USERS, userId);
}
