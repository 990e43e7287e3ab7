import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger, REDACTED } from '@hermes/logging';
import type { Logger } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { collector, readLines, tempDir } from './helpers.js';

const SECRETS = {
  telegram: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1',
  openai: 'sk-test-0123456789abcdefXYZ',
  slackBot: 'xoxb-2222222222-3333333333-abcdefABCDEF',
  slackApp: 'xapp-1-A0123456789-4444444444-ffff',
  bearer: 'abcdef0123456789tokenvalue',
  literal: 'my-configured-literal-secret',
  basicAuth: 'dXNlcjpwYXNzd29yZA',
  bindingKey: 'plain-api-key-in-bindings',
  nestedPassword: 'nested-password-value',
};

describe('createLogger redaction', () => {
  it('keeps every secret out of the file, whatever the method, shape or child logger', async () => {
    const dir = join(tempDir(), 'logs', 'nested');
    const handle = createLogger({ dir, level: 'trace', secrets: [SECRETS.literal], name: 'gateway' });
    const { logger } = handle;
    const methods = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
    for (const method of methods) {
      logger[method](`plain-${method} token ${SECRETS.telegram} key ${SECRETS.openai}`);
      logger[method]({ slack: SECRETS.slackBot, app: SECRETS.slackApp }, `object-${method}`);
    }
    logger.info({ headers: { authorization: `Basic ${SECRETS.basicAuth}` }, url: '/v1/chat' }, 'request-seen');
    logger.info({ req: { headers: { Authorization: `Bearer ${SECRETS.bearer}` } } }, `header Bearer ${SECRETS.bearer}`);
    logger.warn({ user: { password: SECRETS.nestedPassword } }, 'nested-password');
    logger.error(new Error(`connect failed with ${SECRETS.literal}`), 'error-as-first-argument');
    logger.error({ err: new Error(`model said ${SECRETS.openai}`) }, 'error-under-err');
    logger.error({ error: new Error(`other key ${SECRETS.literal}`) }, 'error-under-error');
    const child = logger.child({ apiKey: SECRETS.bindingKey, platform: 'telegram', bot: SECRETS.telegram });
    child.info(`child-line with ${SECRETS.literal}`);
    child.child({ session: 'sess_1' }).warn({ token: SECRETS.literal }, 'grandchild-line');
    await handle.flush();

    const text = readFileSync(join(dir, 'gateway.log'), 'utf8');
    for (const [name, secret] of Object.entries(SECRETS)) {
      expect(text, `${name} leaked`).not.toContain(secret);
    }
    expect(text).toContain(REDACTED);
    expect(text).toContain(`Bearer ${REDACTED}`);

    const lines = readLines(join(dir, 'gateway.log'));
    expect(lines.map((line) => line.msg)).toEqual([
      ...methods.flatMap((m) => [`plain-${m} token ${REDACTED} key ${REDACTED}`, `object-${m}`]),
      'request-seen',
      `header Bearer ${REDACTED}`,
      'nested-password',
      'error-as-first-argument',
      'error-under-err',
      'error-under-error',
      `child-line with ${REDACTED}`,
      'grandchild-line',
    ]);
    expect(lines.every((line) => line.name === 'gateway')).toBe(true);
    const request = lines.find((line) => line.msg === 'request-seen');
    expect(request).toMatchObject({ headers: { authorization: REDACTED }, url: '/v1/chat' });
    const errorLine = lines.find((line) => line.msg === 'error-under-error');
    expect(errorLine?.error).toMatchObject({ type: 'Error', message: `other key ${REDACTED}` });
    const childLine = lines.find((line) => line.msg?.toString().startsWith('child-line'));
    expect(childLine).toMatchObject({ platform: 'telegram', apiKey: REDACTED, bot: REDACTED });
    const grandchild = lines.find((line) => line.msg === 'grandchild-line');
    expect(grandchild).toMatchObject({ session: 'sess_1', token: REDACTED });
    const first = lines.find((line) => line.msg === 'error-as-first-argument');
    expect(JSON.stringify(first?.err)).toContain('connect failed with [REDACTED]');
    await handle.close();
  });

  it('writes owner-only files and keeps lines appended across loggers', async () => {
    const dir = tempDir();
    for (const n of [1, 2]) {
      const handle = createLogger({ dir, fileName: 'app.log', level: 'info', secrets: [] });
      handle.logger.info(`run ${n}`);
      await handle.close();
    }
    const file = join(dir, 'app.log');
    expect(readLines(file).map((line) => line.msg)).toEqual(['run 1', 'run 2']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('createLogger levels and console', () => {
  it('filters the file and the JSON console by their own levels, both redacted', async () => {
    const dir = tempDir();
    const out = collector();
    const handle = createLogger({
      dir,
      level: 'debug',
      secrets: ['console-secret-1'],
      console: 'json',
      consoleLevel: 'warn',
      consoleStream: out,
    });
    handle.logger.trace('t-line');
    handle.logger.debug('d-line');
    handle.logger.info('i-line console-secret-1');
    handle.logger.warn('w-line console-secret-1');
    handle.logger.error('e-line');
    await handle.flush();
    expect(readLines(join(dir, 'gateway.log')).map((l) => l.msg)).toEqual([
      'd-line',
      `i-line ${REDACTED}`,
      `w-line ${REDACTED}`,
      'e-line',
    ]);
    const consoleLines = out
      .text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string });
    expect(consoleLines.map((l) => l.msg)).toEqual([`w-line ${REDACTED}`, 'e-line']);
    expect(out.text()).not.toContain('console-secret-1');
    await handle.close();
  });

  it('pretty-prints the console (redacted) while the file stays JSON', async () => {
    const dir = tempDir();
    const out = collector();
    const handle = createLogger({
      dir,
      level: 'info',
      secrets: [],
      console: 'pretty',
      consoleStream: out,
      colorize: false,
      name: 'hermes',
    });
    handle.logger.info({ chat: 42 }, `hello from pretty ${SECRETS.openai}`);
    await handle.flush();
    const text = out.text();
    expect(text).toMatch(/INFO \(hermes\): hello from pretty \[REDACTED\]/);
    expect(text).toContain('chat: 42');
    expect(text).not.toContain('{"level"');
    expect(text).not.toContain(SECRETS.openai);
    expect(readLines(join(dir, 'gateway.log'))[0]).toMatchObject({ msg: `hello from pretty ${REDACTED}`, chat: 42 });
    await handle.close();
  });

  it('can log to the console only, and drops lines after close without throwing', async () => {
    const out = collector();
    const handle = createLogger({ level: 'info', secrets: [], console: 'json', consoleStream: out });
    expect(handle.file).toBeNull();
    handle.logger.info('before');
    await handle.close();
    expect(() => handle.logger.info('after')).not.toThrow();
    expect(out.text()).toContain('"msg":"before"');
    expect(out.text()).not.toContain('after');
  });

  it('writes nothing to the console when console is false', async () => {
    const dir = tempDir();
    const handle = createLogger({ dir, level: 'warn', secrets: [] });
    handle.logger.info('below-level');
    handle.logger.warn('at-level');
    await handle.close();
    expect(handle.file).toBe(join(dir, 'gateway.log'));
    expect(readLines(join(dir, 'gateway.log')).map((l) => l.msg)).toEqual(['at-level']);
    expect(existsSync(join(dir, 'gateway.log'))).toBe(true);
  });

  it('returns a logger that satisfies the protocol Logger interface', async () => {
    const dir = tempDir();
    const handle = createLogger({ dir, level: 'info', secrets: [] });
    const logger: Logger = handle.logger;
    logger.child({ plugin: 'demo' }).info({ n: 1 }, 'through the interface');
    await handle.close();
    expect(readLines(join(dir, 'gateway.log'))[0]).toMatchObject({
      plugin: 'demo',
      n: 1,
      msg: 'through the interface',
    });
  });
});
