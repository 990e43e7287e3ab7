/**
 * `hermes mcp list`: every server of mcp_servers with its transport, state and tool count (each
 * enabled server is connected to, in parallel, within its connect_timeout_s). `hermes mcp test NAME`:
 * connects to one server (even a disabled one) and prints its tools by the names the model sees;
 * exit 1 with the reason when it does not connect.
 */
import type { McpManager, McpServerStatus } from '@hermes/agent';
import { secretValues } from '@hermes/config';
import { createLogger, createRedactor } from '@hermes/logging';
import { EXIT } from '@hermes/protocol';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { createMcpManager } from '../mcp-setup.js';
import { loadSettings } from '../settings.js';

async function connected<T>(
  options: GlobalOptions,
  only: string | null,
  use: (manager: McpManager, configPath: string) => T,
): Promise<T> {
  const settings = loadSettings(options);
  const { config, env, paths } = settings;
  const secrets = secretValues(config, env, { dotenv: settings.dotenv });
  const redact = createRedactor(secrets);
  const log = await createLogger({
    dir: paths.logs,
    fileName: 'cli.log',
    level: config.logging.level,
    secrets,
    redactor: redact,
    name: 'hermes',
  });
  let chosen = config;
  if (only !== null) {
    const server = config.mcp_servers[only];
    if (!server) {
      await log.close();
      const known = Object.keys(config.mcp_servers).join(', ') || 'none';
      throw new CliExit(EXIT.USAGE, `no MCP server "${only}" in ${paths.config} (configured: ${known})`);
    }
    chosen = { ...config, mcp_servers: { [only]: { ...server, enabled: true } } };
  }
  const manager = createMcpManager({
    config: chosen,
    env,
    home: settings.home,
    tools: null,
    logger: log.logger.child({ component: 'mcp' }),
    redact,
  });
  try {
    manager.start();
    await manager.ready();
    return use(manager, paths.config);
  } finally {
    await manager.close();
    await log.close();
  }
}

function pad(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function listLines(statuses: McpServerStatus[]): string {
  const rows = [['NAME', 'TRANSPORT', 'STATE', 'TOOLS', 'ERROR']];
  for (const s of statuses) rows.push([s.name, s.transport, s.state, String(s.tools.length), s.error ?? '']);
  return pad(rows);
}

export async function mcpList(options: GlobalOptions, opts: { json?: boolean }): Promise<void> {
  const out = await connected(options, null, (manager, configPath) => {
    const statuses = manager.status();
    if (opts.json) return `${JSON.stringify(statuses, null, 2)}\n`;
    if (statuses.length === 0) return `no MCP servers configured (mcp_servers in ${configPath})\n`;
    return `${listLines(statuses)}\n`;
  });
  process.stdout.write(out);
}

export async function mcpTest(options: GlobalOptions, name: string, opts: { json?: boolean }): Promise<void> {
  const status = await connected(options, name, (manager) => manager.status()[0]);
  if (!status) throw new CliExit(EXIT.ERROR, `no MCP server "${name}"`);
  if (opts.json) process.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
  if (status.state !== 'connected') {
    throw new CliExit(EXIT.ERROR, `MCP server "${name}" did not connect: ${status.error ?? status.state}`);
  }
  if (opts.json) return;
  const lines = [`${name} (${status.transport}): connected, ${status.tools.length} tools offered to the model`];
  const rows = status.tools.map((t) => [`  ${t.model}`, `(${t.mcp} on the server)`]);
  if (rows.length > 0) lines.push(pad(rows));
  for (const s of status.skipped) lines.push(`  skipped ${s.mcp}: ${s.reason}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
