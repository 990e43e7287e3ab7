// The first hour at the command line: a mistyped command, a base URL without a scheme, a server
// that answers with an HTML page, and `doctor` telling whether the model answers and is served.

import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI({ models: ['other-model', 'test-model'] });

describe('a mistyped command', () => {
  it.each([
    [['chta'], "unknown command 'chta' (did you mean `hermes chat`?)"],
    [['status'], "unknown command 'status' (did you mean `hermes gateway status`?)"],
    [['plugin', 'list'], "unknown command 'plugin' (did you mean `hermes plugins`?)"],
    [['xyzzy'], "unknown command 'xyzzy'\n"],
    [['what is 2+2'], 'to ask the agent once: `hermes -z "what is 2+2"`'],
  ])('hermes %s: unknown command with a did-you-mean, exit 2', async (args, said) => {
    const r = await runHermes(args, { env: { HERMES_HOME: tempHome() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(said);
    expect(r.stderr).not.toContain('too many arguments');
  });

  it('a mistyped subcommand is said the same way, pointing at its own command help (#29 item 11d)', async () => {
    const r = await runHermes(['gateway', 'stauts'], { env: { HERMES_HOME: tempHome() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "error: unknown command 'stauts' (did you mean `hermes gateway status`?)\n(run hermes gateway --help for usage)\n",
    );
    const none = await runHermes(['hooks', 'frobnicate'], { env: { HERMES_HOME: tempHome() } });
    expect(none.stderr).toBe("error: unknown command 'frobnicate'\n(run hermes hooks --help for usage)\n");
  });

  it('hermes help gateway is hermes gateway --help', async () => {
    const r = await runHermes(['help', 'gateway'], { env: { HERMES_HOME: tempHome() } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: hermes gateway');
  });
});

describe('model endpoint errors', () => {
  let html: Server;
  let htmlUrl = '';
  beforeAll(async () => {
    html = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end(
        `<!DOCTYPE html>\n<html><head><title>404 Not Found</title><style>body{}</style></head><body><h1>Not Found</h1><p>${'The requested URL was not found on this server. '.repeat(20)}</p></body></html>`,
      );
    });
    await new Promise<void>((r) => html.listen(0, '127.0.0.1', r));
    htmlUrl = `http://127.0.0.1:${(html.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => html.close(() => r())));

  it('a base URL without a scheme is a configuration error at once (env and config.yaml), no request made', async () => {
    const env = { HERMES_HOME: tempHome(), OPENAI_BASE_URL: '127.0.0.1:11434/v1', HERMES_INFERENCE_MODEL: 'm' };
    const r = await runHermes(['-z', 'hi'], { env });
    expect(r.code).toBe(78);
    expect(r.stderr).toContain('OPENAI_BASE_URL (env override for model.base_url)');
    expect(r.stderr).toContain('http://127.0.0.1:11434/v1');
    expect(r.stderr).not.toContain('attempts');
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'model:\n  default: m\n  base_url: localhost:11434/v1\n');
    const file = await runHermes(['-z', 'hi'], { env: { HERMES_HOME: home } });
    expect(file.code).toBe(78);
    expect(file.stderr).toContain(
      `${join(home, 'config.yaml')}:3: model.base_url: expected an http:// or https:// URL`,
    );
    const d = await runHermes(['doctor'], { env: { HERMES_HOME: home } });
    expect(d.stdout).toMatch(/✗ config: .*model\.base_url/);
  });

  it("a non-OpenAI server's HTML error page is summarized: status and title, not pasted", async () => {
    const zHome = tempHome();
    const r = await runHermes(['-z', 'hi'], {
      env: { HERMES_HOME: zHome, OPENAI_BASE_URL: htmlUrl, HERMES_INFERENCE_MODEL: 'm' },
    });
    expect(r.code).not.toBe(0);
    // the user gets the plain sentence with its code; the log has the summarized page
    expect(r.stderr).toContain(
      'The model server answered with an error, HTTP 404: HTML page "404 Not Found" (HERMES_MODEL_HTTP)',
    );
    expect(readFileSync(join(zHome, 'logs', 'cli.log'), 'utf8')).toContain('HTML page \\"404 Not Found\\"');
    expect(readFileSync(join(zHome, 'logs', 'cli.log'), 'utf8')).not.toContain('The requested URL');
    expect(r.stderr).not.toContain('<');
    expect(r.stderr).not.toContain('The requested URL');
    const d = await runHermes(['doctor'], {
      env: { HERMES_HOME: tempHome(), OPENAI_BASE_URL: htmlUrl, HERMES_INFERENCE_MODEL: 'm' },
    });
    expect(d.code).toBe(1);
    expect(d.stdout).toContain('did not answer a one-token completion: HTTP 404: HTML page "404 Not Found"');
    expect(d.stdout).toContain(`! model list: ${htmlUrl} has no /models (HTTP 404)`);
  });

  it('doctor: the model answers and is listed; a model the server does not serve fails and names what it serves', async () => {
    openai.server.respond((req) =>
      req.body?.model === 'test-model'
        ? { text: 'O' }
        : { status: 404, body: { error: { message: 'model not found' } } },
    );
    const ok = await runHermes(['doctor'], {
      env: { HERMES_HOME: tempHome(), OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model' },
    });
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.stdout).toContain('answered a one-token completion');
    expect(ok.stdout).toContain('✓ model list: GET /models lists test-model');
    const typo = await runHermes(['doctor'], {
      env: { HERMES_HOME: tempHome(), OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'tset-model' },
    });
    expect(typo.code).toBe(1);
    expect(typo.stdout).toContain('✗ model: tset-model at');
    expect(typo.stdout).toContain('HTTP 404: model not found');
    expect(typo.stdout).toContain(
      '✗ model list: GET /models does not list tset-model; it lists: other-model, test-model',
    );
  });
});
