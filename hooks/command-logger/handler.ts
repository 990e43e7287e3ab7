// Appends one JSON line per slash command to HERMES_HOME/logs/command_usage.jsonl.
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { GatewayHookApi } from '@hermes/plugin-sdk';

export async function handle(_event: string, context: Record<string, unknown>, hermes: GatewayHookApi) {
  const dir = join(hermes.home, 'logs');
  await mkdir(dir, { recursive: true });
  const entry = {
    ts: new Date().toISOString(),
    command: context.command,
    args: context.args,
    platform: context.platform,
    user: context.user_id,
  };
  await appendFile(join(dir, 'command_usage.jsonl'), `${JSON.stringify(entry)}\n`);
}
