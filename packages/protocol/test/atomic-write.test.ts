// The one atomic file replacement (config.yaml, the hooks allowlist, the gateway lock).
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomicSync } from '@hermes/protocol';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'hermes-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mode = (path: string) => statSync(path).mode & 0o777;

describe('writeFileAtomicSync', () => {
  it('creates owner-only, keeps an existing mode, or forces the one asked for', () => {
    const path = join(dir, 'config.yaml');
    writeFileAtomicSync(path, 'a: 1\n');
    expect([readFileSync(path, 'utf8'), mode(path)]).toEqual(['a: 1\n', 0o600]);
    chmodSync(path, 0o640);
    writeFileAtomicSync(path, 'a: 2\n');
    expect([readFileSync(path, 'utf8'), mode(path)]).toEqual(['a: 2\n', 0o640]);
    writeFileAtomicSync(path, 'a: 3\n', { mode: 0o600 });
    expect([readFileSync(path, 'utf8'), mode(path)]).toEqual(['a: 3\n', 0o600]);
  });

  it('leaves the target and no temporary file behind when the rename fails', () => {
    const target = join(dir, 'occupied');
    mkdirSync(target);
    writeFileSync(join(target, 'keep'), 'x');
    expect(() => writeFileAtomicSync(target, 'text')).toThrow();
    expect(readdirSync(dir).filter((name) => name.startsWith('occupied.tmp-'))).toEqual([]);
    expect(readFileSync(join(target, 'keep'), 'utf8')).toBe('x');
  });
});
