import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES } from '@hermes/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReadFileTool, READ_FILE_MAX_CHARS } from '../../src/tools/index.js';
import { callTool, createFakeContext, makeTempDir } from './fake-tool-context.js';

let dir: string;
const { context } = createFakeContext();

beforeEach(async () => {
  dir = await makeTempDir();
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const numbered = (count: number) => `${Array.from({ length: count }, (_, i) => `line${i + 1}`).join('\n')}\n`;

describe('read_file', () => {
  it('reads a whole file relative to the working directory', async () => {
    await writeFile(path.join(dir, 'a.txt'), 'hello\nworld\n');
    const result = await callTool(createReadFileTool({ cwd: dir }), { path: 'a.txt' }, context);
    expect(result).toEqual({
      path: path.join(dir, 'a.txt'),
      content: 'hello\nworld',
      total_lines: 2,
      truncated: false,
    });
  });

  it('returns the offset/limit window with the total line count and where to continue', async () => {
    await writeFile(path.join(dir, 'n.txt'), numbered(10));
    const tool = createReadFileTool({ cwd: dir });
    expect(await callTool(tool, { path: 'n.txt', offset: 3, limit: 2 }, context)).toEqual({
      path: path.join(dir, 'n.txt'),
      content: 'line3\nline4',
      total_lines: 10,
      truncated: true,
      next_offset: 5,
    });
    const last = await callTool(tool, { path: 'n.txt', offset: 9, limit: 5 }, context);
    expect(last).toMatchObject({ content: 'line9\nline10', total_lines: 10, truncated: false });
    expect(last.next_offset).toBeUndefined();
  });

  it('limits to 2000 lines by default', async () => {
    await writeFile(path.join(dir, 'big.txt'), numbered(2500));
    const result = await callTool(createReadFileTool({ cwd: dir }), { path: 'big.txt' }, context);
    expect(String(result.content).split('\n')).toHaveLength(2000);
    expect(result).toMatchObject({ total_lines: 2500, truncated: true, next_offset: 2001 });
  });

  it('caps content at 100 000 characters, keeping whole lines', async () => {
    const long = 'x'.repeat(60_000);
    await writeFile(path.join(dir, 'wide.txt'), `${long}\n${long}\n${long}\n`);
    const result = await callTool(createReadFileTool({ cwd: dir }), { path: 'wide.txt' }, context);
    expect(result).toMatchObject({ content: long, total_lines: 3, truncated: true, next_offset: 2 });
  });

  it('cuts a single line longer than the cap', async () => {
    await writeFile(path.join(dir, 'one.txt'), 'y'.repeat(READ_FILE_MAX_CHARS + 5));
    const result = await callTool(createReadFileTool({ cwd: dir }), { path: 'one.txt' }, context);
    expect(String(result.content)).toHaveLength(READ_FILE_MAX_CHARS);
    expect(result).toMatchObject({ total_lines: 1, truncated: true });
  });

  it('normalises CRLF line endings', async () => {
    await writeFile(path.join(dir, 'crlf.txt'), 'a\r\nb\r\n');
    const result = await callTool(createReadFileTool({ cwd: dir }), { path: 'crlf.txt' }, context);
    expect(result).toMatchObject({ content: 'a\nb', total_lines: 2 });
  });

  it('reports a missing file with its absolute path', async () => {
    const result = await callTool(createReadFileTool({ cwd: dir }), { path: 'nope/missing.txt' }, context);
    expect(result).toEqual({ error: `File not found: ${path.join(dir, 'nope/missing.txt')}` });
  });

  it('refuses directories', async () => {
    await mkdir(path.join(dir, 'sub'));
    const result = await callTool(createReadFileTool({ cwd: dir }), { path: 'sub' }, context);
    expect(result).toEqual({ error: `Path is a directory, not a file: ${path.join(dir, 'sub')}` });
  });

  it('refuses binary files (a NUL byte in the first 8 KB)', async () => {
    await writeFile(path.join(dir, 'bin.dat'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    const result = await callTool(createReadFileTool({ cwd: dir }), { path: 'bin.dat' }, context);
    expect(result).toEqual({ error: `Binary file, not shown: ${path.join(dir, 'bin.dat')}` });
  });

  it.each([
    [{}, 'Missing required argument "path": expected a string'],
    [{ path: 7 }, 'Invalid argument "path": expected a string, got number'],
    [{ path: 'a.txt', offset: 0 }, 'Invalid argument "offset": expected an integer >= 1, got 0'],
    [{ path: 'a.txt', offset: 1.5 }, 'Invalid argument "offset": expected an integer >= 1, got 1.5'],
    [{ path: 'a.txt', limit: '10' }, 'Invalid argument "limit": expected an integer >= 1, got string'],
  ])('%j gives a named error', async (args, error) => {
    expect(await callTool(createReadFileTool({ cwd: dir }), args, context)).toEqual({
      error,
      code: ERROR_CODES.TOOL_ARGS,
    });
  });
});
