// docs/mcp.md's example, run: its server (the `// file: mcp/weather-server.mjs` block) and its config (the
// `# file: config.yaml` block) written to a HERMES_HOME, `hermes mcp test weather` printing what the doc shows,
// and `hermes -z` with a fake model calling mcp_weather_forecast; the first config sample loads without warnings.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@hermes/config';
import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { fileBlocks } from './helpers/doc-blocks.js';
import { runHermes, tempHome, trustHome } from './helpers/run-hermes.js';
import { useFakeOpenAI } from './helpers/use-fake-openai.js';

const DOC = readFileSync(fileURLToPath(new URL('../docs/mcp.md', import.meta.url)), 'utf8');
const NODE_MODULES = fileURLToPath(new URL('../node_modules', import.meta.url));
const openai = useFakeOpenAI();

/** The `console` block's lines after `$ <command>`, up to the next prompt. */
function consoleOutput(markdown: string, command: string): string {
  const block = /```console\n([\s\S]*?)```/.exec(markdown)?.[1] ?? '';
  const after = block.split(`$ ${command}\n`)[1] ?? '';
  return after.split(/^\$ /m)[0] ?? '';
}

function exampleHome(): string {
  const home = tempHome();
  for (const [path, text] of fileBlocks(DOC)) {
    mkdirSync(dirname(join(home, path)), { recursive: true });
    writeFileSync(join(home, path), text);
  }
  // what `npm install @modelcontextprotocol/sdk zod` in HERMES_HOME/mcp provides
  symlinkSync(NODE_MODULES, join(home, 'mcp', 'node_modules'), 'dir');
  // the operator's consent for the servers (docs/mcp.md says to run it)
  trustHome(home);
  return home;
}

const env = (home: string) => ({ HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'm' });

describe('docs/mcp.md', () => {
  it('the first config sample is valid', () => {
    const yaml = /```yaml\n([\s\S]*?)```/.exec(DOC)?.[1] ?? '';
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), yaml);
    const { config, warnings } = loadConfig({ home, env: {} });
    expect(warnings).toEqual([]);
    expect(Object.keys(config.mcp_servers)).toEqual(['weather', 'tickets', 'scratch']);
  });

  it('hermes mcp test weather prints what the doc shows', async () => {
    const home = exampleHome();
    const r = await runHermes(['mcp', 'test', 'weather'], { env: env(home) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(consoleOutput(DOC, 'hermes mcp test weather'));
    expect(readFileSync(join(home, 'logs', 'cli.log'), 'utf8')).toContain('weather server ready');
  });

  it('hermes -z: the model calls mcp_weather_forecast and reads its answer; alerts is a tool error', async () => {
    const home = exampleHome();
    openai.server.script(
      {
        toolCalls: [
          { name: 'mcp_weather_forecast', arguments: { city: 'Lisbon' } },
          { name: 'mcp_weather_alerts', arguments: { city: 'Lisbon' } },
        ],
      },
      { text: 'Lisbon: sunny, 21 °C.' },
    );
    const r = await runHermes(['-z', "What's the weather in Lisbon?"], { env: env(home) });
    expect(r.stdout).toBe(`${consoleOutput(DOC, `hermes -z "What's the weather in Lisbon?"`)}`);
    const second = openai.server.requests.filter((q) => q.path.endsWith('/chat/completions'))[1];
    const results = (second?.body as { messages: ChatMessage[] }).messages
      .filter((m) => m.role === 'tool')
      .map((m) => m.content);
    expect(results).toEqual([
      'Lisbon: sunny, 21 °C',
      JSON.stringify({
        error:
          'tool mcp_weather_alerts failed: MCP tool alerts of weather reported an error: no alert service for Lisbon',
      }),
    ]);
  });
});
