// agent.tool_descriptions: short through `hermes -z`: the request's tool schemas keep each tool's
// first sentence and drop the parameters' descriptions; the figures in docs/context-engines.md
// (characters / 4, the context engine's estimate) are printed here.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();

interface Schema {
  function: {
    name: string;
    description: string;
    parameters: { properties?: Record<string, { description?: string }> };
  };
}

async function toolsOfOneRequest(config: string): Promise<Schema[]> {
  const home = tempHome();
  writeFileSync(join(home, 'config.yaml'), config);
  openai.server.reset();
  openai.server.script({ text: 'ok' });
  const r = await runHermes(['-z', 'hi'], {
    env: { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model' },
  });
  expect(r.code, r.stderr).toBe(0);
  return (openai.server.requests.find((q) => q.path.endsWith('/chat/completions'))?.body as { tools: Schema[] }).tools;
}

describe('agent.tool_descriptions', () => {
  it('short: first sentences only, no parameter descriptions, the same tools, under half the size', async () => {
    const full = await toolsOfOneRequest('');
    const short = await toolsOfOneRequest('agent:\n  tool_descriptions: short\n');
    expect(short.map((t) => t.function.name)).toEqual(full.map((t) => t.function.name));
    const patch = short.find((t) => t.function.name === 'patch');
    expect(patch?.function.description).toBe('Change part of a text file without rewriting it whole.');
    for (const t of short) {
      for (const property of Object.values(t.function.parameters.properties ?? {}))
        expect(property.description).toBeUndefined();
    }
    const tokens = (tools: Schema[]) => Math.round(JSON.stringify(tools).length / 4);
    console.log(
      `tool schemas (${full.length} tools, defaults): full ~${tokens(full)} tokens, short ~${tokens(short)} tokens`,
    );
    expect(tokens(short)).toBeLessThan(tokens(full) / 2);
  });
});
