import { createRedactor, REDACTED, redactText, SECRET_PATTERNS } from '@hermes/logging';
import { describe, expect, it } from 'vitest';

const TELEGRAM = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1';

describe('redactText', () => {
  it.each([
    ['a Telegram bot token', `bot ${TELEGRAM} ok`, `bot ${REDACTED} ok`],
    [
      'a Telegram token inside an API URL',
      `https://api.telegram.org/bot${TELEGRAM}/getMe`,
      `https://api.telegram.org/bot${REDACTED}/getMe`,
    ],
    ['an OpenAI key', 'key=sk-abcdefghijklmnop1234', `key=${REDACTED}`],
    ['a project key', 'sk-proj-AbCdEfGhIjKlMnOpQrStUv_-9', REDACTED],
    ['a Slack bot token', 'xoxb-1234567890-0987654321-AbCdEf', REDACTED],
    ['a Slack app token', 'xapp-1-A0123456789-abcdef', REDACTED],
    [
      'a bearer credential, keeping the scheme',
      'Authorization: Bearer abc.def-ghi_jkl==',
      `Authorization: Bearer ${REDACTED}`,
    ],
  ])('redacts %s', (_name, input, expected) => {
    expect(redactText(input, [])).toBe(expected);
  });

  it('redacts literal secrets as given and as escaped inside JSON', () => {
    const secret = 'pa"ss\\word-42';
    const line = JSON.stringify({ msg: `value ${secret}` });
    expect(line).not.toContain(secret);
    const out = redactText(`${line} raw ${secret}`, [secret]);
    expect(out).toBe(`{"msg":"value ${REDACTED}"} raw ${REDACTED}`);
  });

  it('replaces the longest overlapping secret whole', () => {
    expect(redactText('token=abcdef123456', ['abcdef', 'abcdef123456'])).toBe(`token=${REDACTED}`);
  });

  it('ignores literal secrets shorter than 6 characters, and leaves ordinary text alone', () => {
    const text = 'task-abcdefghijklmnopqrst at 12:30:45, mask sk-short, xoxb-1 and a b c';
    expect(redactText(text, ['a', 'abc', ''])).toBe(text);
  });

  it('exports the patterns as global regexes with replacements', () => {
    expect(SECRET_PATTERNS.map((p) => p.name)).toEqual([
      'telegram_bot_token',
      'sk_key',
      'slack_token',
      'slack_app_token',
      'bearer',
    ]);
    for (const { pattern } of SECRET_PATTERNS) expect(pattern.flags).toContain('g');
    expect(Object.isFrozen(SECRET_PATTERNS)).toBe(true);
  });

  it('gives the same result through a reusable redactor', () => {
    const redact = createRedactor(['my-secret-1']);
    expect(redact('a my-secret-1 b')).toBe(`a ${REDACTED} b`);
    expect(redact('again my-secret-1')).toBe(`again ${REDACTED}`);
  });
});
