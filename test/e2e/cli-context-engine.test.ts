// An unknown context.engine is a configuration error at start of hermes -z and the gateway (exit 78) naming the registered engines;
// no model request is made and no session is stored.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();

describe('context.engine at start', () => {
  it('hermes -z with an engine nobody registered exits 78 naming the registered ones', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'context:\n  engine: summarizer\n');
    const r = await runHermes(['-z', 'hi'], {
      env: { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model' },
    });
    expect(r.code).toBe(78);
    expect(r.stderr).toContain('context.engine: no context engine "summarizer" is registered (registered: compressor)');
    expect(openai.server.requests).toHaveLength(0);
  });

  it('hermes gateway run with an engine nobody registered exits 78 before it listens', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'context:\n  engine: summarizer\n');
    const r = await runHermes(['gateway', 'run'], {
      env: { HERMES_HOME: home, OPENAI_BASE_URL: openai.server.url, HERMES_INFERENCE_MODEL: 'test-model' },
    });
    expect(r.code).toBe(78);
    expect(r.stderr).toContain('context.engine: no context engine "summarizer" is registered (registered: compressor)');
  });
});
