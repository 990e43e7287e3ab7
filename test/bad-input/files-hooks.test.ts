// Bad input in files: config.yaml (loaded in-process, a sample through the built CLI), plugin.yaml
// and HOOK.yaml (each parsed, then all of them in one HERMES_HOME under a real daemon that must
// start, load the good plugin and hook, and answer), and shell-hook stdout (through real processes
// on the hook bus of a running daemon: every output is parsed or reported, the message answered).
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '@hermes/config';
import { HookManifestError, parseHookManifest } from '@hermes/gateway';
import { ManifestError, parseShellResponse, readManifest } from '@hermes/plugins';
import { ERROR_CODES } from '@hermes/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type FakeOpenAI, startFakeOpenAI } from '../fakes/openai-server.js';
import { runHermes } from '../helpers/run-hermes.js';
import {
  generatedDocuments,
  hostileYaml,
  shellOutputs,
  type TextCase,
  VALID_CONFIG,
  VALID_HOOK,
  VALID_PLUGIN,
} from './corpus/files.js';
import { dmUpdate, TelegramIds } from './corpus/telegram.js';
import { type Case, runBatches } from './lib/batch.js';
import { type Daemon, startDaemon } from './lib/daemon.js';
import { type Fakes, lastUserText, platformSetup, post, startFakes, TG_PATH, TG_SECRET } from './lib/platforms.js';
import { Rng, runSeed } from './lib/prng.js';
import { type Edge, Tally } from './lib/tally.js';
import { eventually, until } from './lib/wait.js';

const tally = new Tally();
const seed = runSeed();
const rng = new Rng(seed);
// a pathological parse (a hang, a blow-up) and not a speed check: 5 000 unknown keys take 1-2 s on
// an idle core (YAML's duplicate-key check) and past 5 s with two test files at once on a loaded machine
const SLOW_MS = 15_000;
const CONFIG_CODES: readonly string[] = [ERROR_CODES.CONFIG_SYNTAX, ERROR_CODES.CONFIG_TYPE, ERROR_CODES.CONFIG_KEY];

afterAll(() => tally.report('files-hooks'));

function expectAllPassed(edge: Edge): void {
  const { tried, passed } = tally.count(edge);
  expect(tried).toBeGreaterThan(0);
  expect(tally.failuresOf(edge), `seed ${seed}`).toEqual([]);
  expect(passed).toBe(tried);
}

/** A clear error: one line, not a stack, of a sane length, naming `where`. */
function clearMessage(message: string, where: string): string | null {
  if (message.includes('\n')) return `a multi-line message: ${message.slice(0, 200)}`;
  if (/\n\s+at /.test(message)) return 'a stack trace';
  // the offending value may be quoted: bounded, not tiny
  if (message.length > 10_000) return `a ${message.length}-character message`;
  if (!message.includes(where)) return `the message does not name ${where}: ${message.slice(0, 200)}`;
  return null;
}

function timed<T>(fn: () => T): { value?: T; error?: unknown; ms: number } {
  const started = Date.now();
  try {
    return { value: fn(), ms: Date.now() - started };
  } catch (error) {
    return { error, ms: Date.now() - started };
  }
}

async function withModel<T>(fn: (model: FakeOpenAI, fakes: Fakes) => Promise<T>): Promise<T> {
  const model = await startFakeOpenAI();
  model.respond((request) => ({ text: `echo: ${lastUserText(request).slice(0, 100)}` }));
  const fakes = await startFakes();
  try {
    return await fn(model, fakes);
  } finally {
    await fakes.close();
    await model.close();
  }
}

describe('bad input in files and shell-hook output', () => {
  it('config.yaml: every document loads or fails with one clear line naming the file (never a crash)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'hermes-bad-config-'));
    const file = join(home, 'config.yaml');
    const cases: TextCase[] = [...hostileYaml(), ...generatedDocuments(rng.fork('config'), VALID_CONFIG, 130, 50)];
    for (const c of cases) {
      writeFileSync(file, c.text);
      const r = timed(() => loadConfig({ home, env: {} }));
      let why: string | null = null;
      if (r.ms > SLOW_MS) why = `took ${r.ms} ms`;
      else if (r.error === undefined) why = Object.isFrozen(r.value?.config) ? null : 'the config is not frozen';
      else if (!(r.error instanceof ConfigError)) {
        why = `threw ${r.error instanceof Error ? `${r.error.name}: ${r.error.message.slice(0, 200)}` : String(r.error)}`;
      } else if (!CONFIG_CODES.includes(r.error.code)) why = `code ${r.error.code}`;
      else why = clearMessage(r.error.message, file);
      tally.record('config-yaml', c.label, why);
    }
    // environment overrides are part of the same edge
    for (const [name, value] of [
      ['HERMES_GATEWAY_PORT', 'abc'],
      ['HERMES_GATEWAY_PORT', '70000'],
      ['HERMES_GATEWAY_PORT', '-1'],
      ['HERMES_LOG_LEVEL', 'LOUD'],
      ['HERMES_GATEWAY_HOST', '\u0000'],
      ['OPENAI_BASE_URL', megabyte()],
    ] as const) {
      writeFileSync(file, stringify(VALID_CONFIG));
      const r = timed(() => loadConfig({ home, env: { [name]: value } }));
      const why =
        r.error === undefined
          ? null
          : r.error instanceof ConfigError
            ? clearMessage(r.error.message, name)
            : `threw ${String(r.error).slice(0, 200)}`;
      tally.record('config-yaml', `env ${name}=${JSON.stringify(value.slice(0, 20))}`, why);
    }
    // the built CLI: a broken config.yaml stops `gateway run` and `config show` with exit 78 and one line
    const cliCases = cases.filter((c) => ['alias bomb (billion laughs)', 'flow nesting 20000 deep'].includes(c.label));
    await Promise.all(
      cliCases.flatMap((c) => {
        const cliHome = mkdtempSync(join(tmpdir(), 'hermes-bad-config-cli-'));
        writeFileSync(join(cliHome, 'config.yaml'), c.text);
        const loaded = loadOutcome(join(cliHome, 'config.yaml'));
        // a document that loads is shown (exit 0); one that does not stops both commands with exit 78
        const commands = loaded === 'ok' ? (['config show'] as const) : (['config show', 'gateway run'] as const);
        return commands.map(async (command) => {
          const r = await runHermes(command.split(' '), {
            env: { HERMES_HOME: cliHome, HERMES_GATEWAY_PORT: '0', HERMES_INFERENCE_MODEL: 'm' },
            timeoutMs: 30_000,
          });
          let why: string | null = null;
          if (loaded === 'ok') {
            if (r.code !== 0) why = `exit ${r.code}: ${r.stderr.slice(0, 300)}`;
          } else if (r.code !== 78) why = `exit ${r.code}: ${r.stderr.slice(0, 300)}`;
          else {
            const lines = r.stderr.trim().split('\n');
            why = lines.length === 1 && lines[0]?.startsWith('hermes: ') ? null : `stderr: ${r.stderr.slice(0, 300)}`;
          }
          tally.record('config-yaml', `cli ${command}: ${c.label}`, why);
        });
      }),
    );
    expectAllPassed('config-yaml');
  }, 120_000);

  it('plugin.yaml and HOOK.yaml: each is read or refused clearly; with all of them installed the daemon starts and answers', async () => {
    await withModel(async (model, fakes) => {
      const home = mkdtempSync(join(tmpdir(), 'hermes-bad-manifests-'));
      const plugins = [...hostileYaml(), ...generatedDocuments(rng.fork('plugin'), VALID_PLUGIN, 40, 15)];
      const hooks = [...hostileYaml(), ...generatedDocuments(rng.fork('hook'), VALID_HOOK, 40, 15)];
      const pluginResults: (string | null)[] = [];
      const enabled: string[] = ['good-control'];
      for (const [i, c] of plugins.entries()) {
        const dir = join(home, 'plugins', `bad-${i}`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'plugin.yaml'), c.text);
        writeFileSync(join(dir, 'index.js'), 'export function register() {}\n');
        enabled.push(`bad-${i}`, `junk-plugin`);
        const file = join(dir, 'plugin.yaml');
        const started = Date.now();
        try {
          await readManifest(file, () => {});
          pluginResults.push(Date.now() - started > SLOW_MS ? 'slow' : null);
        } catch (error) {
          pluginResults.push(
            error instanceof ManifestError ? clearMessage(error.message, file) : `threw ${String(error).slice(0, 200)}`,
          );
        }
      }
      const good = join(home, 'plugins', 'good-control');
      mkdirSync(good, { recursive: true });
      writeFileSync(
        join(good, 'plugin.yaml'),
        stringify({ name: 'good-control', version: '1.0.0', provides_tools: ['good_control_tool'] }),
      );
      writeFileSync(
        join(good, 'index.js'),
        `export function register(ctx) {
  ctx.registerTool({ name: 'good_control_tool', toolset: 'control', schema: { name: 'good_control_tool', description: 'x', parameters: { type: 'object', properties: {} } }, handler: () => 'ok' });
}\n`,
      );
      const hookResults: (string | null)[] = [];
      for (const [i, c] of hooks.entries()) {
        const dir = join(home, 'hooks', `bad-${i}`);
        mkdirSync(dir, { recursive: true });
        const file = join(dir, 'HOOK.yaml');
        writeFileSync(file, c.text);
        writeFileSync(join(dir, 'handler.js'), 'export async function handle() {}\n');
        const text = readFileSync(file, 'utf8');
        const r = timed(() => parseHookManifest(text, file));
        hookResults.push(
          r.ms > SLOW_MS
            ? `took ${r.ms} ms`
            : r.error === undefined
              ? null
              : r.error instanceof HookManifestError
                ? clearMessage(r.error.message, file)
                : `threw ${String(r.error).slice(0, 200)}`,
        );
      }
      const marker = join(home, 'good-hook-fired');
      const goodHook = join(home, 'hooks', 'zz-good-control');
      mkdirSync(goodHook, { recursive: true });
      writeFileSync(
        join(goodHook, 'HOOK.yaml'),
        stringify({ name: 'good-control', description: 'x', events: ['agent:end'] }),
      );
      writeFileSync(
        join(goodHook, 'handler.js'),
        `import { appendFileSync } from 'node:fs';\nexport async function handle() { appendFileSync(${JSON.stringify(marker)}, 'x'); }\n`,
      );
      // one daemon over all of them
      const { env, platforms } = platformSetup(fakes, 'http');
      let daemonProblem: string | null = null;
      let daemon: Daemon | undefined;
      try {
        daemon = await startDaemon({
          home,
          env,
          modelUrl: model.url,
          // hooks_auto_accept: the gateway hooks written above load without `hermes hooks approve`
          config: { plugins: { enabled: [...new Set(enabled)] }, gateway: { platforms }, hooks_auto_accept: true },
        });
        if (daemon.app.rt.tools.get('good_control_tool') === undefined)
          daemonProblem = 'the good plugin was not loaded';
        const { update } = dmUpdate(new TelegramIds(1), 'still answering?');
        const res = await post(`${daemon.url}${TG_PATH}`, JSON.stringify(update), {
          'content-type': 'application/json',
          'x-telegram-bot-api-secret-token': TG_SECRET,
        });
        if (res.status !== 200) daemonProblem ??= `the webhook answered ${res.status}`;
        const answered = await eventually(
          () => fakes.telegram.sent.some((m) => m.text.includes('still answering')),
          20_000,
        );
        if (!answered) daemonProblem ??= 'a valid message was not answered';
        const fired = await eventually(() => readFileOr(marker) !== '', 10_000);
        if (!fired) daemonProblem ??= 'the good gateway hook did not run';
        if (daemon.crashLines().length > 0) daemonProblem ??= `crash: ${daemon.crashLines()[0]?.slice(0, 300)}`;
      } catch (error) {
        daemonProblem = `the daemon did not start: ${error instanceof Error ? error.message : String(error)}`;
      } finally {
        await daemon?.stop();
        if (!process.env.BAD_INPUT_KEEP_HOME) rmSync(home, { recursive: true, force: true });
      }
      for (const [i, c] of plugins.entries()) tally.record('plugin-yaml', c.label, pluginResults[i] ?? daemonProblem);
      for (const [i, c] of hooks.entries()) tally.record('hook-yaml', c.label, hookResults[i] ?? daemonProblem);
    });
    expectAllPassed('plugin-yaml');
    expectAllPassed('hook-yaml');
  }, 180_000);

  it('shell-hook stdout: real hook processes print junk on five hooks; each message is still answered (or skipped as asked)', async () => {
    await withModel(async (model, fakes) => {
      const home = mkdtempSync(join(tmpdir(), 'hermes-bad-stdout-'));
      const outDir = join(home, 'outputs');
      mkdirSync(outDir);
      // the hook prints the output file its payload names (each message carries its case marker), else nothing
      const script = join(home, 'emit.sh');
      writeFileSync(
        script,
        `#!/bin/sh\nid=$(grep -o 'stdoutcase[0-9]*x' | head -n 1)\nif [ -n "$id" ] && [ -f "${outDir}/$id" ]; then exec cat "${outDir}/$id"; fi\nexit 0\n`,
      );
      chmodSync(script, 0o755);
      const events = [
        'pre_gateway_dispatch',
        'pre_llm_call',
        'pre_tool_call',
        'transform_tool_result',
        'post_llm_call',
      ];
      const { env, platforms } = platformSetup(fakes, 'http');
      // each turn calls a tool (its arguments carry the marker), so the tool hooks fire too
      model.respond((request) => {
        const messages = (request.body?.messages ?? []) as { role: string }[];
        const text = lastUserText(request);
        if (messages.at(-1)?.role === 'tool') return { text: `answered: ${text.slice(0, 40)}` };
        const marker = /stdoutcase\d+x/.exec(text)?.[0] ?? '';
        return { toolCalls: [{ name: 'calculate', arguments: { expression: '6*7', note: marker } }] };
      });
      const daemon = await startDaemon({
        home,
        // every user allowed: each case talks in its own DM, so the cases run side by side
        env: { ...env, TELEGRAM_ALLOWED_USERS: '*' },
        modelUrl: model.url,
        config: {
          hooks: Object.fromEntries(events.map((e) => [e, [{ command: script, timeout: 10 }]])),
          hooks_auto_accept: true,
          plugins: { enabled: ['calculator'] },
          agent: { toolsets: ['calculator'] },
          gateway: { platforms },
        },
      });
      try {
        expect(daemon.app.rt.shellHooks.registered).toHaveLength(events.length);
        const ids = new TelegramIds(10);
        const cases: Case[] = shellOutputs(rng.fork('stdout'), 12).map((c, i) => {
          const marker = `stdoutcase${i}x`;
          writeFileSync(join(outDir, marker), c.text);
          const { update, key } = dmUpdate(ids, `${marker} hello`, 70_000 + i);
          const text = typeof c.text === 'string' ? c.text : Buffer.from(c.text).toString('utf8');
          const skip = parseShellResponse('dispatch', text.slice(0, 1_000_000), 'x').result?.action === 'skip';
          return {
            label: c.label,
            send: async () => {
              const res = await post(`${daemon.url}${TG_PATH}`, JSON.stringify(update), {
                'content-type': 'application/json',
                'x-telegram-bot-api-secret-token': TG_SECRET,
              });
              if (res.status !== 200) return `webhook answered ${res.status}`;
              const done = await eventually(() => {
                const row = daemon.message('telegram', key);
                return row !== undefined && !['accepted', 'processing'].includes(row.status);
              }, 30_000);
              return done ? null : 'the message was not finished';
            },
            verify: () => {
              const row = daemon.message('telegram', key);
              if (skip) return row?.status === 'skipped' ? null : `expected skipped, got ${row?.status}`;
              if (row?.status !== 'done') return `inbox row ${row?.status}`;
              return row.outbox.length > 0 && row.outbox.every((s) => s === 'sent')
                ? null
                : `replies ${row.outbox.join(',')}`;
            },
          };
        });
        await runBatches(cases, {
          edge: 'shell-stdout',
          tally,
          daemon,
          concurrent: 6,
          canary: async (tag) => {
            const { update } = dmUpdate(ids, `canary ${tag}`);
            await post(`${daemon.url}${TG_PATH}`, JSON.stringify(update), {
              'content-type': 'application/json',
              'x-telegram-bot-api-secret-token': TG_SECRET,
            });
            await until(`canary ${tag}`, () => fakes.telegram.sent.some((m) => m.text.includes(tag)), 20_000);
          },
          inputTimeoutMs: 40_000,
        });
        // the hook processes really ran and their junk was reported
        expect(daemon.logText()).toMatch(/printed invalid JSON/);
      } finally {
        await daemon.stop();
        if (!process.env.BAD_INPUT_KEEP_HOME) rmSync(home, { recursive: true, force: true });
      }
    });
    expectAllPassed('shell-stdout');
  }, 240_000);
});

function megabyte(): string {
  return 'x'.repeat(1024 * 1024);
}

function readFileOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Whether a config.yaml loads (in-process), for the CLI cases' expectations. */
function loadOutcome(file: string): 'ok' | 'error' {
  try {
    loadConfig({ home: join(file, '..'), env: {} });
    return 'ok';
  } catch {
    return 'error';
  }
}
