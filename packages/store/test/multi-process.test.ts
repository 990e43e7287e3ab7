import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '@hermes/store';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from './temp-dir.js';

const tempDir = useTempDirs();
const worker = fileURLToPath(new URL('./fixtures/append-worker.ts', import.meta.url));
const PER_WORKER = 400;

function startWorker(args: string[]): { child: ChildProcess; ready: Promise<void>; exited: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const ready = new Promise<void>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
  });
  const exited = new Promise<void>((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker exited ${code}: ${stderr}`))));
  });
  return { child, ready, exited };
}

describe('several processes on one state.db', () => {
  it('interleave appends to one session without losing a message or reusing a seq', async () => {
    const path = join(tempDir(), 'state.db');
    const store = openStore(path);
    const { id } = store.sessions.create({ key: 'shared', platform: 'cli' });
    try {
      const workers = ['a', 'b'].map((label) => startWorker([path, id, String(PER_WORKER), label]));
      await Promise.race([Promise.all(workers.map((w) => w.ready)), ...workers.map((w) => w.exited)]);
      writeFileSync(`${path}.go`, '');
      await Promise.all(workers.map((w) => w.exited));

      const seqs = store.db.prepare('SELECT seq FROM messages WHERE session_id = ? ORDER BY seq').pluck().all(id);
      expect(seqs).toEqual(Array.from({ length: 2 * PER_WORKER }, (_, i) => i + 1));
      const contents = store.transcripts.list(id).map((m) => m.content);
      for (const label of ['a', 'b']) {
        const mine = contents.filter((c) => c?.startsWith(`${label}-`));
        expect(mine).toEqual(Array.from({ length: PER_WORKER }, (_, i) => `${label}-${i}`));
      }
    } finally {
      store.close();
    }
  });
});
