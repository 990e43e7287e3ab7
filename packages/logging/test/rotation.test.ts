import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFileSink } from '../src/file-sink.js';

describe('log file rotation', () => {
  it('rotates at the size limit, keeps the newest files, drops the oldest, never loses the current line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hermes-rotate-'));
    const sink = openFileSink(dir, 'gateway.log', { maxBytes: 100, keep: 2 });
    for (let i = 0; i < 11; i++) sink.write(`${JSON.stringify({ n: i, pad: 'x'.repeat(40) })}\n`);
    await sink.close();
    const path = join(dir, 'gateway.log');
    const ns = (file: string) =>
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { n: number }).n);
    // a file is rotated once it passes 100 bytes: two ~56-byte lines each
    expect(ns(`${path}.2`)).toEqual([6, 7]);
    expect(ns(`${path}.1`)).toEqual([8, 9]);
    expect(ns(path)).toEqual([10]);
    expect(existsSync(`${path}.3`)).toBe(false);
  });
});
