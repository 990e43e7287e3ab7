/** Values that must never appear in logs, tool output, state.db, replies or API answers. */
import { mcpSecretValues } from './env-refs.js';
import type { EnvLike, HermesConfig } from './hermes-config.js';

/** Secrets shorter than this are ignored: redacting them would shred ordinary text. */
export const MIN_SECRET_LENGTH = 6;

/**
 * A name that says "credential": one of its `_`-separated words (or its end) is TOKEN, KEY, SECRET,
 * PASSWORD, PASSWD, PASS, PWD, PAT, AUTH, CREDENTIAL(S), PRIVATE, DSN, COOKIE or SIGNATURE.
 */
const SECRET_NAME =
  /(?:^|_)(?:[A-Z0-9]*(?:TOKEN|KEY|SECRET|PASSWORD|PASSWD)S?|PASS|PWD|PAT|AUTH|CREDENTIALS?|PRIVATE|DSN|COOKIE|SIGNATURE)(?:_|$)|(?:TOKEN|KEY|SECRET|PASSWORD)$/i;
/** Names that match the word rule yet hold no secret (paths, sockets, the shell's directories). */
const NOT_SECRET_NAME = /^(?:PWD|OLDPWD|SSH_AUTH_SOCK|GPG_AGENT_INFO|XAUTHORITY|KEYTIMEOUT)$/i;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** `scheme://user:password@`: the credentials (group 1) and the password (group 2) */
const URL_USERINFO = /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/([^\s/?#@:]*:([^\s/?#@]+))@/g;

/** Is `name` the name of a credential (env var or config key)? */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !NOT_SECRET_NAME.test(name);
}

/**
 * Values that are not worth redacting even under a secret-looking name: an absolute path, a number,
 * a boolean word, or one lowercase word (a mode such as `disabled`).
 */
function isOrdinaryValue(value: string): boolean {
  return (
    /^(?:\/[\w.@+~-]+)+\/?$/.test(value) ||
    /^[0-9.,:-]+$/.test(value) ||
    /^(?:true|false|yes|no|on|off|null|none)$/i.test(value)
  );
}

/**
 * The credentials inside `scheme://user:password@host` URLs of `value`: `user:password` and the
 * password, as written and URL-decoded.
 */
export function urlCredentials(value: string): string[] {
  const found: string[] = [];
  for (const match of value.matchAll(URL_USERINFO)) {
    const [, userinfo, password] = match as unknown as [string, string, string];
    found.push(userinfo, password);
    try {
      found.push(decodeURIComponent(password));
    } catch {
      // not valid percent-encoding: the raw form is enough
    }
  }
  return found;
}

export interface SecretValuesOptions {
  /** the values of HERMES_HOME/.env as written in the file: all of them are secrets, whatever their name */
  dotenv?: Readonly<Record<string, string>>;
}

/**
 * Every value to redact: model.api_key, gateway.console.token, every value of HERMES_HOME/.env, process env vars with a
 * credential name ({@link isSecretName}), platform settings with a credential name, each
 * `logging.redact` entry (the value of the env var it names, else the entry itself), and the
 * credentials (`user:password`, the password) of every URL among them, in model.base_url and in
 * any other env var. Ordinary values (paths, numbers, booleans) and values shorter than MIN_SECRET_LENGTH are
 * dropped. Deduplicated, longest first.
 */
export function secretValues(config: HermesConfig, env: EnvLike, options: SecretValuesOptions = {}): string[] {
  const found = new Set<string>([config.model.api_key, ...urlCredentials(config.model.base_url)]);
  if (config.gateway.console.token !== undefined) found.add(config.gateway.console.token);
  for (const value of Object.values(options.dotenv ?? {})) found.add(value);
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    // a URL with credentials under an ordinary name (OPENAI_BASE_URL): its credentials, not the
    // whole URL, so the log still says which host failed
    if (isSecretName(name)) found.add(value);
    else for (const credential of urlCredentials(value)) found.add(credential);
  }
  // secrets kept in platform settings (e.g. gateway.platforms.telegram.webhook_secret)
  for (const settings of Object.values(config.gateway.platforms)) {
    for (const [key, value] of Object.entries(settings)) {
      if (typeof value === 'string' && isSecretName(key)) found.add(value);
    }
  }
  // header values and credential-named or ${VAR} env values of mcp_servers (env-refs.ts)
  for (const value of mcpSecretValues(config.mcp_servers, env, isSecretName)) found.add(value);
  for (const entry of config.logging.redact) {
    const fromEnv = ENV_NAME.test(entry) ? env[entry] : undefined;
    found.add(fromEnv ?? entry);
  }
  for (const value of [...found]) for (const credential of urlCredentials(value)) found.add(credential);
  return [...found]
    .map((value) => value.trim())
    .filter((value) => value.length >= MIN_SECRET_LENGTH && !isOrdinaryValue(value))
    .filter((value, i, all) => all.indexOf(value) === i)
    .sort((a, b) => b.length - a.length);
}
