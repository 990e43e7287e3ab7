import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPatchTool } from '../../src/tools/patch-tool.js';
import { callTool, createFakeContext, makeTempDir } from './fake-tool-context.js';

let dir: string;
const { context } = createFakeContext();
const read = (name: string) => readFile(path.join(dir, name), 'utf8');

beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SOURCE = ['function greet(name) {', "  return 'hello ' + name;", '}', '', 'greet("a");', 'greet("b");', ''].join(
  '\n',
);

describe('patch: search and replace', () => {
  it('replaces one exact text and leaves the rest of the file as it was', async () => {
    await writeFile(path.join(dir, 'a.js'), SOURCE);
    const tool = createPatchTool({ cwd: dir });
    const result = await callTool(tool, { path: 'a.js', old_text: "'hello '", new_text: "'hi '" }, context);
    expect(result).toEqual({ files: [{ path: path.join(dir, 'a.js'), action: 'modified', replacements: 1 }] });
    expect(await read('a.js')).toBe(SOURCE.replace("'hello '", "'hi '"));
  });

  it('refuses an ambiguous text with the lines it is on, unless replace_all', async () => {
    await writeFile(path.join(dir, 'a.js'), SOURCE);
    const tool = createPatchTool({ cwd: dir });
    const twice = await callTool(tool, { path: 'a.js', old_text: 'greet("', new_text: 'hello("' }, context);
    expect(twice.error).toMatch(/occurs 2 times in .*a\.js \(lines 5, 6\).*replace_all/);
    expect(await read('a.js')).toBe(SOURCE);
    const all = await callTool(
      tool,
      { path: 'a.js', old_text: 'greet("', new_text: 'hello("', replace_all: true },
      context,
    );
    expect(all.files).toEqual([expect.objectContaining({ replacements: 2 })]);
    expect(await read('a.js')).toContain('hello("a");\nhello("b");');
  });

  it('says where the text nearly is when only its indentation differs', async () => {
    await writeFile(path.join(dir, 'a.js'), SOURCE);
    const tool = createPatchTool({ cwd: dir });
    const block = await callTool(tool, { path: 'a.js', old_text: '{\nx;\n}', new_text: '' }, context);
    expect(block.error).toMatch(/old_text was not found in .*a\.js/);
    await writeFile(path.join(dir, 'b.js'), 'if (x) {\n    y();\n}\n');
    const indented = await callTool(tool, { path: 'b.js', old_text: 'if (x) {\n  y();\n}', new_text: '' }, context);
    expect(indented.error).toMatch(/other indentation or spacing start at line 1/);
  });

  it('edits a CRLF file with text written with \\n, keeping its line ends', async () => {
    await writeFile(path.join(dir, 'w.txt'), 'one\r\ntwo\r\nthree\r\n');
    const tool = createPatchTool({ cwd: dir });
    await callTool(tool, { path: 'w.txt', old_text: 'one\ntwo', new_text: 'one\n2' }, context);
    expect(await read('w.txt')).toBe('one\r\n2\r\nthree\r\n');
  });

  it('refuses a missing file and wrong arguments by name', async () => {
    const tool = createPatchTool({ cwd: dir });
    expect((await callTool(tool, { path: 'nope.js', old_text: 'a', new_text: 'b' }, context)).error).toMatch(
      /No such file: .*nope\.js/,
    );
    expect((await callTool(tool, { path: 'a.js', old_text: 'a' }, context)).error).toMatch(
      /"new_text": expected a string/,
    );
    expect((await callTool(tool, { old_text: 'a', new_text: 'b' }, context)).error).toMatch(/either path .* or diff/);
  });
});

describe('patch: unified diff', () => {
  it('applies a git diff to several files at once, creating and deleting files', async () => {
    await mkdir(path.join(dir, 'src'));
    await writeFile(path.join(dir, 'src/a.js'), SOURCE);
    await writeFile(path.join(dir, 'old.txt'), 'bye\n');
    const diff = [
      'diff --git a/src/a.js b/src/a.js',
      '--- a/src/a.js',
      '+++ b/src/a.js',
      '@@ -1,3 +1,3 @@',
      ' function greet(name) {',
      "-  return 'hello ' + name;",
      "+  return 'hi ' + name;",
      ' }',
      '@@ -5,2 +5,3 @@',
      ' greet("a");',
      ' greet("b");',
      '+greet("c");',
      '--- /dev/null',
      '+++ b/new.txt',
      '@@ -0,0 +1,2 @@',
      '+first',
      '+second',
      '--- a/old.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
      '',
    ].join('\n');
    const tool = createPatchTool({ cwd: dir });
    const result = await callTool(tool, { diff }, context);
    expect(result.files).toEqual([
      { path: path.join(dir, 'src/a.js'), action: 'modified', hunks: 2 },
      { path: path.join(dir, 'new.txt'), action: 'created', hunks: 1 },
      { path: path.join(dir, 'old.txt'), action: 'deleted', hunks: 1 },
    ]);
    expect(await read('src/a.js')).toBe(
      SOURCE.replace("'hello '", "'hi '").replace('greet("b");\n', 'greet("b");\ngreet("c");\n'),
    );
    expect(await read('new.txt')).toBe('first\nsecond\n');
    await expect(read('old.txt')).rejects.toThrow(/ENOENT/);
  });

  it('finds a hunk whose lines moved since the diff was made', async () => {
    await writeFile(path.join(dir, 'a.js'), `// a header added later\n// and another\n${SOURCE}`);
    const diff = ['--- a.js', '+++ a.js', '@@ -5,2 +5,2 @@', ' greet("a");', '-greet("b");', '+greet("B");', ''].join(
      '\n',
    );
    const result = await callTool(createPatchTool({ cwd: dir }), { diff }, context);
    expect(result.error).toBeUndefined();
    expect(await read('a.js')).toContain('greet("a");\ngreet("B");\n');
  });

  it('names the hunk that does not apply, what the file has there, and writes nothing', async () => {
    await writeFile(path.join(dir, 'a.js'), SOURCE);
    await writeFile(path.join(dir, 'b.txt'), 'untouched\n');
    const diff = [
      '--- a/b.txt',
      '+++ b/b.txt',
      '@@ -1 +1 @@',
      '-untouched',
      '+touched',
      '--- a/a.js',
      '+++ b/a.js',
      '@@ -1,3 +1,3 @@',
      ' function greet(name) {',
      "-  return 'howdy ' + name;",
      "+  return 'hi ' + name;",
      ' }',
      '',
    ].join('\n');
    const result = await callTool(createPatchTool({ cwd: dir }), { diff }, context);
    expect(result.error).toMatch(
      /hunk 1 of 1 \(@@ -1,3 \+1,3 @@\) does not apply to .*a\.js: line 2 should be " {2}return 'howdy ' \+ name;" but is " {2}return 'hello ' \+ name;"/,
    );
    expect(await read('b.txt')).toBe('untouched\n');
    expect(await read('a.js')).toBe(SOURCE);
  });

  it('keeps to the file roots and protected paths like write_file', async () => {
    const home = path.join(dir, 'home');
    await mkdir(home);
    await writeFile(path.join(home, '.env'), 'KEY=1\n');
    const tool = createPatchTool({ cwd: dir, hermesHomes: [home], fileRoots: [dir] });
    const env = await callTool(tool, { path: 'home/.env', old_text: 'KEY=1', new_text: 'KEY=2' }, context);
    expect(env.error).toMatch(/protected path/);
    const outside = await callTool(
      tool,
      { diff: '--- /dev/null\n+++ /tmp/elsewhere.txt\n@@ -0,0 +1 @@\n+x\n' },
      context,
    );
    expect(outside.error).toMatch(/outside the allowed folders/);
    expect(await readFile(path.join(home, '.env'), 'utf8')).toBe('KEY=1\n');
  });

  it('refuses text that is not a diff', async () => {
    const result = await callTool(createPatchTool({ cwd: dir }), { diff: 'please change line 3' }, context);
    expect(result.error).toMatch(/diff has no hunks/);
  });
});
