/** Shapes of well-known credentials, redacted wherever they appear in log lines or tool output. */

export interface SecretPattern {
  name: string;
  /** global regex; `$1` etc. in `replacement` refer to its groups */
  pattern: RegExp;
  replacement: string;
}

export const REDACTED = '[REDACTED]';

/** Applied in order by redactText. The regexes are global: use them with replace/replaceAll/matchAll. */
export const SECRET_PATTERNS: readonly SecretPattern[] = Object.freeze([
  // Telegram bot token: <bot id>:<35 chars>; also inside https://api.telegram.org/bot<token>/...
  { name: 'telegram_bot_token', pattern: /(?<!\d)\d{6,12}:[A-Za-z0-9_-]{30,}/g, replacement: REDACTED },
  // OpenAI-style keys, including sk-proj-... and sk-or-v1-...
  { name: 'sk_key', pattern: /(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{16,}/g, replacement: REDACTED },
  // Slack bot/user/app-level tokens
  { name: 'slack_token', pattern: /(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}/g, replacement: REDACTED },
  { name: 'slack_app_token', pattern: /(?<![A-Za-z0-9])xapp-[A-Za-z0-9-]{10,}/g, replacement: REDACTED },
  // HTTP bearer credentials: the scheme word stays, the credential goes
  { name: 'bearer', pattern: /\b(Bearer)(\s+)[A-Za-z0-9._~+/-]+=*/gi, replacement: `$1$2${REDACTED}` },
]);
