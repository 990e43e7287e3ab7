import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTrustedFile } from '../src/gateway-hooks/trusted-file.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('readTrustedFile (hermes.trustedFile)', () => {
  const home = mkdtempSync(join(tmpdir(), 'trusted-file-'));
  writeFileSync(join(home, 'BOOT.md'), 'approved text\n');

  it('hands out the content only when the hash of what it read is the approved one', async () => {
    expect(await readTrustedFile(home, { 'BOOT.md': sha('approved text\n') }, 'BOOT.md')).toEqual({
      state: 'approved',
      content: 'approved text\n',
    });
    expect(await readTrustedFile(home, {}, 'BOOT.md')).toEqual({ state: 'new', sha256: sha('approved text\n') });
    expect(await readTrustedFile(home, { 'BOOT.md': sha('older text\n') }, 'BOOT.md')).toEqual({
      state: 'changed',
      sha256: sha('approved text\n'),
    });
    expect(await readTrustedFile(home, { 'NOPE.md': sha('') }, 'NOPE.md')).toEqual({ state: 'missing' });
  });

  it('takes only plain file names of HERMES_HOME', async () => {
    for (const bad of ['../BOOT.md', 'sub/BOOT.md', '/etc/passwd', '', '.env', 'constructor/x']) {
      await expect(readTrustedFile(home, {}, bad)).rejects.toThrow(/file name of HERMES_HOME/);
    }
    // an inherited property is no approval
    expect((await readTrustedFile(home, {}, 'BOOT.md')).state).toBe('new');
  });
});
