import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSearchFilesTool } from '../../src/tools/search-files-tool.js';
import { callTool, createFakeContext, makeTempDir } from './fake-tool-context.js';

let dir: string;
const { context } = createFakeContext();
const put = async (name: string, text: string | Buffer) => {
  await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
  await writeFile(path.join(dir, name), text);
};

beforeEach(async () => {
  dir = await makeTempDir();
  await put('src/app.ts', 'export const port = 8080;\nconst token = "TOPSECRET123";\n// TODO: tidy\n');
  await put('src/util/strings.ts', 'export function pad(s: string) {\n  // TODO: unicode\n  return s;\n}\n');
  await put('docs/guide.md', '# Guide\n\nSee TODO list.\n');
  await put('build/out.js', '// TODO: generated\n');
  await put('.gitignore', 'build/\n*.log\n');
  await put('debug.log', 'TODO in a log\n');
  await put('docs/.ignore', 'drafts/\n');
  await put('docs/drafts/wip.md', 'TODO: a draft\n');
  await put('.git/config', 'TODO inside git\n');
  await put('image.bin', Buffer.from([0x54, 0x4f, 0x44, 0x4f, 0, 1, 2]));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('search_files', () => {
  it('finds lines by regular expression with file and line, skipping ignored (.gitignore, a nested .ignore), .git and binary files', async () => {
    const tool = createSearchFilesTool({ cwd: dir });
    const result = await callTool(tool, { pattern: 'TODO' }, context);
    expect(result.matches).toEqual([
      { path: path.join(dir, 'docs/guide.md'), line: 3, text: 'See TODO list.' },
      { path: path.join(dir, 'src/app.ts'), line: 3, text: '// TODO: tidy' },
      { path: path.join(dir, 'src/util/strings.ts'), line: 2, text: '  // TODO: unicode' },
    ]);
    expect(result.truncated).toBe(false);
  });

  it('finds files by glob, narrows by file_glob, and pages with offset', async () => {
    const tool = createSearchFilesTool({ cwd: dir });
    const files = await callTool(tool, { pattern: '*.ts', target: 'files' }, context);
    expect(files.files).toEqual([
      { path: path.join(dir, 'src/app.ts') },
      { path: path.join(dir, 'src/util/strings.ts') },
    ]);
    const md = await callTool(tool, { pattern: 'todo', case_sensitive: false, file_glob: '*.md' }, context);
    expect(md.matches).toEqual([expect.objectContaining({ path: path.join(dir, 'docs/guide.md') })]);
    const first = await callTool(tool, { pattern: 'TODO', limit: 2 }, context);
    expect(first.matches).toHaveLength(2);
    expect(first).toMatchObject({ truncated: true, next_offset: 2 });
    const next = await callTool(tool, { pattern: 'TODO', limit: 2, offset: 2 }, context);
    expect(next.matches).toEqual([expect.objectContaining({ path: path.join(dir, 'src/util/strings.ts'), line: 2 })]);
  });

  it('gives context lines, and redacts secrets from what it returns', async () => {
    const tool = createSearchFilesTool({
      cwd: dir,
      secrets: () => ['TOPSECRET123'],
      redact: (text, secrets) => secrets.reduce((t, s) => t.split(s).join('[REDACTED]'), text),
    });
    const result = await callTool(tool, { pattern: String.raw`\bport\b`, path: 'src', context: 1 }, context);
    expect(result.matches).toEqual([
      {
        path: path.join(dir, 'src/app.ts'),
        line: 1,
        text: 'export const port = 8080;',
        before: [],
        after: ['const token = "[REDACTED]";'],
      },
    ]);
  });

  it('keeps to the allowed folders, skips protected files and links, and names a bad pattern', async () => {
    const home = path.join(dir, 'home');
    await put('home/.env', 'TODO=1\n');
    await symlink('/etc', path.join(dir, 'etc-link'));
    const tool = createSearchFilesTool({ cwd: dir, hermesHomes: [home], fileRoots: [dir] });
    const result = await callTool(tool, { pattern: 'TODO|root' }, context);
    const paths = (result.matches as Array<{ path: string }>).map((m) => m.path);
    expect(paths).not.toContain(path.join(home, '.env'));
    expect(paths.some((p) => p.includes('etc-link'))).toBe(false);
    expect((await callTool(tool, { pattern: 'x', path: '/etc' }, context)).error).toMatch(
      /outside the allowed folders/,
    );
    expect((await callTool(tool, { pattern: '(' }, context)).error).toMatch(/"pattern": not a regular expression/);
  });
});
