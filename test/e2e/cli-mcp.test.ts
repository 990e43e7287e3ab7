// MCP through the built CLI: `hermes -z` with a fake model that calls mcp_<server>_<tool> on the real fake MCP
// server (test/fakes/mcp, the official SDK); its result reaches the model; a server killed mid-call gives the
// model a clear tool error and the next call reconnects; `hermes mcp list|test` over stdio and streamable HTTP.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChatMessage } from '@hermes/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMcpHttp, startFakeMcpHttp } from '../fakes/mcp/http-server.js';
import { processesWith } from '../fakes/mcp/processes.js';
import type { FakeOpenAI } from '../fakes/openai-server.js';
import { startFakeOpenAI } from '../fakes/openai-server.js';
import { runHermes, tempHome, trustHome } from '../helpers/run-hermes.js';

const SERVER = fileURLToPath(new URL('../fakes/mcp/server.mjs', import.meta.url));
/** an extra argument of every server this file starts, for the orphan check */
const MARKER = `cli-mcp-e2e-${process.pid}`;

let model: FakeOpenAI;
let http: FakeMcpHttp;
beforeAll(async () => {
  [model, http] = await Promise.all([startFakeOpenAI(), startFakeMcpHttp({ token: 'mcp-http-token-42' })]);
});
afterAll(() => Promise.all([model?.close(), http?.close()]));

function home(extra = ''): string {
  const dir = tempHome();
  writeFileSync(
    join(dir, 'config.yaml'),
    `mcp_servers:
  fake:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(SERVER)}, ${MARKER}]
${extra}`,
  );
  trustHome(dir);
  return dir;
}

function run(args: string[], dir: string) {
  return runHermes(args, {
    env: { HERMES_HOME: dir, OPENAI_BASE_URL: model.url, HERMES_INFERENCE_MODEL: 'test-model' },
    timeoutMs: 30_000,
  });
}

const chatMessages = (i: number): ChatMessage[] =>
  (model.requests.filter((r) => r.path.endsWith('/chat/completions'))[i]?.body as { messages: ChatMessage[] }).messages;
const toolResults = (i: number) =>
  chatMessages(i)
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);

describe('MCP tools in hermes -z', () => {
  it("the model calls mcp_fake_add and the server's result reaches the model", async () => {
    model.reset();
    model.script({ toolCalls: [{ name: 'mcp_fake_add', arguments: { a: 19, b: 23 } }] }, { text: 'the sum is 42' });
    const r = await run(['-z', 'add 19 and 23'], home());
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('the sum is 42');
    const offered = (model.requests[0]?.body as { tools: { function: { name: string } }[] }).tools.map(
      (t) => t.function.name,
    );
    expect(offered).toContain('mcp_fake_add');
    expect(toolResults(1)).toEqual(['42']);
  });

  it('a server killed mid-call gives the model a clear tool error; the next call reconnects', async () => {
    model.reset();
    model.script(
      { toolCalls: [{ name: 'mcp_fake_crash', arguments: {} }] },
      { toolCalls: [{ name: 'mcp_fake_echo', arguments: { text: 'back again' } }] },
      { text: 'recovered' },
    );
    const r = await run(['-z', 'crash it'], home());
    expect(r.stdout.trim()).toBe('recovered');
    const [crashed] = toolResults(1);
    expect(JSON.parse(crashed ?? '{}').error).toMatch(
      /^tool mcp_fake_crash failed: MCP server "fake" went away during the call to crash .*the next call reconnects$/,
    );
    expect(toolResults(2)).toEqual([crashed, 'echo: back again']);
    // the reconnected server ended with the CLI
    expect(processesWith(MARKER)).toEqual([]);
  });

  it('a server that ignores its stdin closing is still ended when the CLI exits', async () => {
    model.reset();
    model.script({ text: 'done' });
    const r = await run(['-z', 'hi'], home('    env:\n      FAKE_MCP_IGNORE_STDIN_CLOSE: "1"\n'));
    expect(r.stdout.trim()).toBe('done');
    expect(processesWith(MARKER)).toEqual([]);
  });

  it('agent.toolsets can leave a server out; tools.include keeps only the named tools', async () => {
    model.reset();
    model.script({ text: 'ok' });
    const dir = home(`    tools:
      include: [echo]
  other:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(SERVER)}]
agent:
  toolsets: [mcp-fake]
`);
    await run(['-z', 'hi'], dir);
    const offered = (model.requests[0]?.body as { tools: { function: { name: string } }[] }).tools.map(
      (t) => t.function.name,
    );
    expect(offered).toEqual(['mcp_fake_echo']);
  });
});

describe('hermes mcp list|test', () => {
  const httpConfig = () => `  web:
    url: ${http.url}
    headers:
      Authorization: "Bearer \${MCP_WEB_TOKEN}"
  missing:
    command: /nonexistent/mcp-server
  off:
    url: http://127.0.0.1:9/mcp
    enabled: false
`;

  it('list: each server with transport, state and tool count (--json)', async () => {
    const dir = home(httpConfig());
    writeFileSync(join(dir, '.env'), 'MCP_WEB_TOKEN=mcp-http-token-42\n');
    const r = await run(['mcp', 'list', '--json'], dir);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as { name: string; transport: string; state: string; tools: unknown[] }[];
    expect(list.map(({ name, transport, state }) => ({ name, transport, state }))).toEqual([
      { name: 'fake', transport: 'stdio', state: 'connected' },
      { name: 'web', transport: 'http', state: 'connected' },
      { name: 'missing', transport: 'stdio', state: 'failed' },
      { name: 'off', transport: 'http', state: 'disabled' },
    ]);
    expect(list[1]?.tools).toHaveLength(list[0]?.tools.length ?? -1);
    const table = await run(['mcp', 'list'], dir);
    expect(table.stdout).toMatch(/^missing\s+stdio\s+failed\s+0\s+spawn \/nonexistent\/mcp-server ENOENT$/m);
  });

  it('test NAME: the tools by the names the model sees; exit 1 with the reason on failure', async () => {
    const dir = home(httpConfig());
    const unset = await run(['mcp', 'test', 'web'], dir);
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} syntax
      'MCP server "web" did not connect: mcp_servers.web.headers.Authorization references ${MCP_WEB_TOKEN}, which is not set',
    );
    writeFileSync(join(dir, '.env'), 'MCP_WEB_TOKEN=mcp-http-token-42\n');
    const ok = await run(['mcp', 'test', 'web'], dir);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^web \(http\): connected, \d+ tools offered to the model$/m);
    expect(ok.stdout).toMatch(/^ {2}mcp_web_get_weather\s+\(get\.weather on the server\)$/m);
    const missing = await run(['mcp', 'test', 'missing'], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('MCP server "missing" did not connect: spawn /nonexistent/mcp-server ENOENT');
    const unknown = await run(['mcp', 'test', 'nope'], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no MCP server "nope"');
  });
});
