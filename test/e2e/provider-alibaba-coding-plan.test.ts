// The bundled `alibaba-coding-plan` model provider through the built CLI: its documented default
// (the international Coding Plan endpoint, ALIBABA_CODING_PLAN_API_KEY, qwen3.5-plus) in
// `hermes model list`, and a one-shot `hermes -z` on it answered by the fake OpenAI server that
// ALIBABA_CODING_PLAN_BASE_URL points it at, with its key and model (or model.default's).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const KEY = 'sk-sp-coding-plan-test-0123456789';
const openai = useFakeOpenAI();
const chats = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));

describe('the alibaba-coding-plan model provider', () => {
  it('hermes model list shows its endpoint, key variable (unset) and default model', async () => {
    const run = await runHermes(['model', 'list', '--json'], {
      env: { HERMES_HOME: tempHome(), ALIBABA_CODING_PLAN_BASE_URL: '', ALIBABA_CODING_PLAN_API_KEY: '' },
    });
    expect(run.code, run.stderr).toBe(0);
    const entries = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(entries.find((e) => e.name === 'alibaba-coding-plan')).toEqual({
      name: 'alibaba-coding-plan',
      active: false,
      base_url: 'https://coding-intl.dashscope.aliyuncs.com/v1',
      api_key_env: 'ALIBABA_CODING_PLAN_API_KEY',
      key_set: false,
      default_model: 'qwen3.5-plus',
      context_length: 1_000_000,
      plugin: 'model-providers/alibaba-coding-plan',
    });
  });

  it('hermes --provider alibaba-coding-plan -z: its base URL override, its key, its default model', async () => {
    openai.server.script({ text: 'hello from the coding plan' });
    const env = { ALIBABA_CODING_PLAN_BASE_URL: openai.server.url, ALIBABA_CODING_PLAN_API_KEY: KEY };
    const run = await runHermes(['--provider', 'alibaba-coding-plan', '-z', 'hello'], {
      env: { HERMES_HOME: tempHome(), ...env },
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('hello from the coding plan\n');
    expect(chats().map((r) => [r.body?.model, r.headers.authorization])).toEqual([['qwen3.5-plus', `Bearer ${KEY}`]]);

    // model.provider in config.yaml, with model.default naming another of the plan's models
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), 'model:\n  provider: alibaba-coding-plan\n  default: qwen3-coder-plus\n');
    openai.server.script({ text: 'coder here' });
    const configured = await runHermes(['-z', 'write code'], { env: { HERMES_HOME: home, ...env } });
    expect(configured.stdout).toBe('coder here\n');
    expect(chats().at(-1)?.body?.model).toBe('qwen3-coder-plus');
    expect(configured.stderr).not.toContain(KEY);
  });
});
