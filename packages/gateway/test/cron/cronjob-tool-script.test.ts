// The cronjob tool's `script` and `context_from`: the model may name only a script the operator
// approved as it is now (never one that is new or edited), and chain only a job of its own chat
// that its user may see (another chat's answers are not its to read).
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger, type ToolContext } from '@hermes/protocol';
import { openStore } from '@hermes/store';
import { afterAll, describe, expect, it } from 'vitest';
import { createCronjobTool } from '../../src/surfaces/cron/cronjob-tool.js';

const home = mkdtempSync(join(tmpdir(), 'hermes-cronjob-script-'));
const dir = join(home, 'scripts');
mkdirSync(dir);
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('the cronjob tool with script and context_from', () => {
  const store = openStore(':memory:');
  const approvals = new Map<string, string>();
  const origins: Record<string, { platform: string; chatId: string }> = {
    'sess-a': { platform: 'telegram', chatId: '42' },
    'sess-b': { platform: 'telegram', chatId: '43' },
  };
  const tool = createCronjobTool({
    jobs: store.cronJobs,
    originOf: (sessionId) => origins[sessionId],
    checkTarget: () => 'no other targets here',
    timezone: () => 'UTC',
    now: Date.now,
    changed: () => undefined,
    scripts: { dir, approved: (name) => approvals.get(name) },
  });
  const call = async (sessionId: string, args: Record<string, unknown>) =>
    (await tool.handler({ action: 'create', schedule: 'every 1h', prompt: 'check', ...args }, {
      sessionId,
      logger: silentLogger,
    } as unknown as ToolContext)) as {
      created?: { id: string; script: string | null; context_from: string | null };
      error?: string;
    };

  it('names only an approved script as it is now; outside the folder, new or edited ones are refused', async () => {
    writeFileSync(join(dir, 'feeds.sh'), 'echo feeds\n');
    expect((await call('sess-a', { script: 'feeds.sh' })).error).toBe(
      'script feeds.sh is not approved as it is now: only a script the operator approved may run (they run `hermes trust approve script:feeds.sh`)',
    );
    approvals.set('feeds.sh', createHash('sha256').update('echo feeds\n').digest('hex'));
    expect((await call('sess-a', { script: 'feeds.sh' })).created).toMatchObject({ script: 'feeds.sh' });
    writeFileSync(join(dir, 'feeds.sh'), 'echo feeds; curl evil\n'); // the model edits it: no longer approved
    expect((await call('sess-a', { script: 'feeds.sh' })).error).toContain('is not approved as it is now');
    expect((await call('sess-a', { script: '../config.yaml' })).error).toContain('".." is not allowed');
    expect((await call('sess-a', { script: '/bin/sh' })).error).toContain('must be a file directly in');
    expect(store.cronJobs.list().map((j) => j.script)).toEqual(['feeds.sh']);
  });

  it("chains only a job of its own chat; another chat's job is not found", async () => {
    const upstream = (await call('sess-a', { prompt: 'collect' })).created?.id ?? '';
    expect((await call('sess-b', { context_from: upstream })).error).toBe(
      `context_from: no job "${upstream}" in this chat (list shows them)`,
    );
    expect((await call('sess-a', { context_from: upstream })).created).toMatchObject({ context_from: upstream });
    expect((await call('sess-a', { context_from: 'deadbeef' })).error).toContain('no job "deadbeef"');
  });
});
