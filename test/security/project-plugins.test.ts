// Project plugins stay off without HERMES_ENABLE_PROJECT_PLUGINS=true: a cloned repository's
// ./.hermes/plugins/ never runs by itself, even when config.yaml enables the plugin by name. The
// built CLI in the project folder (a one-shot turn loads every enabled plugin); the plugin's import
// leaves a marker file and registers a tool, so both running and being offered to the model show.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runHermes, tempHome, trustAll } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();

function project(): { dir: string; marker: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-project-'));
  const marker = join(dir, 'project-plugin-ran');
  const plugin = join(dir, '.hermes', 'plugins', 'evil');
  mkdirSync(plugin, { recursive: true });
  writeFileSync(
    join(plugin, 'plugin.yaml'),
    stringify({ name: 'evil', version: '1.0.0', provides_tools: ['evil_tool'] }),
  );
  writeFileSync(
    join(plugin, 'index.js'),
    `import { writeFileSync } from 'node:fs';
writeFileSync(${JSON.stringify(marker)}, 'imported');
export function register(ctx) {
  ctx.registerTool({ name: 'evil_tool', toolset: 'evil', schema: { name: 'evil_tool', description: 'x', parameters: { type: 'object', properties: {} } }, handler: () => 'pwned' });
}
`,
  );
  return { dir, marker };
}

/** A one-shot turn from the project folder; resolves with whether the plugin ran and was offered to the model. */
async function oneShot(flag: string | undefined): Promise<{ ran: boolean; offered: boolean; code: number | null }> {
  const { dir, marker } = project();
  const home = tempHome();
  writeFileSync(join(home, 'config.yaml'), stringify({ plugins: { enabled: ['evil'] } }));
  openai.server.reset();
  openai.server.respond(() => ({ text: 'ok' }));
  const env = {
    HERMES_HOME: home,
    OPENAI_BASE_URL: openai.server.url,
    HERMES_INFERENCE_MODEL: 'm',
    ...(flag === undefined ? {} : { HERMES_ENABLE_PROJECT_PLUGINS: flag }),
  };
  // the operator approves what is enabled: the variable alone decides whether a project plugin is seen
  trustAll(env, dir);
  const r = await runHermes(['-z', 'hello'], { cwd: dir, env, timeoutMs: 30_000 });
  const offered = openai.server.requests.some((req) => req.rawBody.includes('evil_tool'));
  return { ran: existsSync(marker), offered, code: r.code };
}

describe('project plugins stay off without HERMES_ENABLE_PROJECT_PLUGINS=true', () => {
  it('unset, or set to anything but "true": the project plugin never runs and its tool is never offered', async () => {
    // one at a time: each run is judged by the fake model's requests, which are reset per run
    const results: (readonly [string | undefined, Awaited<ReturnType<typeof oneShot>>])[] = [];
    for (const flag of [undefined, '', '1', 'yes', 'TRUE ', 'false', 'on']) results.push([flag, await oneShot(flag)]);
    for (const [flag, r] of results) {
      expect({ flag, code: r.code, ran: r.ran, offered: r.offered }).toEqual({
        flag,
        code: 0,
        ran: false,
        offered: false,
      });
    }
    console.log(
      `project plugins: off for ${results.length} settings of HERMES_ENABLE_PROJECT_PLUGINS (unset, "", 1, yes, "TRUE ", false, on)`,
    );
  }, 120_000);

  it('with HERMES_ENABLE_PROJECT_PLUGINS=true the same plugin runs (the test can see it)', async () => {
    expect(await oneShot('true')).toEqual({ code: 0, ran: true, offered: true });
  }, 60_000);

  it('`hermes plugins list` does not even list a project plugin without the variable', async () => {
    const { dir, marker } = project();
    const home = tempHome();
    writeFileSync(join(home, 'config.yaml'), stringify({ plugins: { enabled: ['evil'] } }));
    const r = await runHermes(['plugins', 'list', '--json'], { cwd: dir, env: { HERMES_HOME: home } });
    expect(r.code).toBe(0);
    const keys = (JSON.parse(r.stdout) as { key: string }[]).map((p) => p.key);
    expect(keys).not.toContain('evil');
    expect(existsSync(marker)).toBe(false);
  }, 60_000);
});
