import { chmod, link, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES } from '@hermes/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWriteFileTool } from '../../src/tools/index.js';
import { writeFileAtomic } from '../../src/tools/write-file-atomic.js';
import { callTool, createFakeContext, makeTempDir } from './fake-tool-context.js';

let dir: string;
const { context } = createFakeContext();

beforeEach(async () => {
  dir = await makeTempDir();
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('write_file', () => {
  it('creates missing parent directories and reports UTF-8 bytes written', async () => {
    const result = await callTool(createWriteFileTool({ cwd: dir }), { path: 'a/b/c.txt', content: 'héllo' }, context);
    const target = path.join(dir, 'a/b/c.txt');
    expect(result).toEqual({ path: target, bytes_written: 6 });
    expect(await readFile(target, 'utf8')).toBe('héllo');
  });

  it('writes empty content', async () => {
    const result = await callTool(createWriteFileTool({ cwd: dir }), { path: 'empty.txt', content: '' }, context);
    expect(result.bytes_written).toBe(0);
    expect(await readFile(path.join(dir, 'empty.txt'), 'utf8')).toBe('');
  });

  it('replaces a file atomically: a new inode via rename, mode kept, no temp file left', async () => {
    const target = path.join(dir, 'run.sh');
    const hardLink = path.join(dir, 'old-view.sh');
    await writeFile(target, 'old');
    await chmod(target, 0o755);
    await link(target, hardLink);
    await callTool(createWriteFileTool({ cwd: dir }), { path: 'run.sh', content: 'new' }, context);
    expect(await readFile(target, 'utf8')).toBe('new');
    // an in-place write would have changed the hard link's content too
    expect(await readFile(hardLink, 'utf8')).toBe('old');
    expect((await stat(target)).mode & 0o777).toBe(0o755);
    expect((await readdir(dir)).sort()).toEqual(['old-view.sh', 'run.sh']);
  });

  it('writes through a symlink instead of replacing it', async () => {
    await writeFile(path.join(dir, 'real.txt'), 'old');
    await symlink('real.txt', path.join(dir, 'link.txt'));
    await callTool(createWriteFileTool({ cwd: dir }), { path: 'link.txt', content: 'new' }, context);
    expect(await readFile(path.join(dir, 'real.txt'), 'utf8')).toBe('new');
  });

  it('refuses to write over a directory', async () => {
    await mkdir(path.join(dir, 'sub'));
    const result = await callTool(createWriteFileTool({ cwd: dir }), { path: 'sub', content: 'x' }, context);
    expect(result).toEqual({ error: `Path is a directory, not a file: ${path.join(dir, 'sub')}` });
  });

  it.each([
    [{ content: 'x' }, 'Missing required argument "path": expected a string'],
    [{ path: 'a.txt' }, 'Missing required argument "content": expected a string'],
    [{ path: 'a.txt', content: { text: 'x' } }, 'Invalid argument "content": expected a string, got object'],
  ])('%j gives a named error', async (args, error) => {
    expect(await callTool(createWriteFileTool({ cwd: dir }), args, context)).toEqual({
      error,
      code: ERROR_CODES.TOOL_ARGS,
    });
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('writeFileAtomic', () => {
  it('leaves the old file and no temp file when the rename fails', async () => {
    const target = path.join(dir, 'keep.txt');
    await writeFile(target, 'original');
    const failingRename = async () => {
      throw Object.assign(new Error('disk on fire'), { code: 'EIO' });
    };
    await expect(writeFileAtomic(target, 'replacement', { rename: failingRename })).rejects.toThrow('disk on fire');
    expect(await readFile(target, 'utf8')).toBe('original');
    expect(await readdir(dir)).toEqual(['keep.txt']);
  });
});
