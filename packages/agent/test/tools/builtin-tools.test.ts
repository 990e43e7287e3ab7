import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BLOCKED_FLOOR, createBuiltinTools, renderDangerousPatternTable } from '../../src/tools/index.js';
import { callTool, createFakeContext, makeTempDir } from './fake-tool-context.js';

let dir: string;

beforeEach(async () => {
  dir = await makeTempDir();
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('createBuiltinTools', () => {
  it('returns terminal, the four file tools, todo, execute_code and clarify with matching schemas', () => {
    const tools = createBuiltinTools({ cwd: dir });
    expect(tools.map((t) => [t.name, t.toolset, t.schema.name, t.owner])).toEqual([
      ['terminal', 'terminal', 'terminal', 'builtin'],
      ['read_file', 'file', 'read_file', 'builtin'],
      ['write_file', 'file', 'write_file', 'builtin'],
      ['patch', 'file', 'patch', 'builtin'],
      ['search_files', 'file', 'search_files', 'builtin'],
      ['todo', 'todo', 'todo', 'builtin'],
      ['execute_code', 'code_execution', 'execute_code', 'builtin'],
      ['clarify', 'clarify', 'clarify', 'builtin'],
    ]);
    for (const tool of tools) {
      expect(tool.schema.description.length, tool.name).toBeGreaterThan(80);
      expect(tool.schema.parameters).toMatchObject({ type: 'object', additionalProperties: false });
    }
    expect(tools.map((t) => t.schema.parameters.required)).toEqual([
      ['command'],
      ['path'],
      ['path', 'content'],
      undefined,
      ['pattern'],
      undefined,
      ['language', 'code'],
      ['question'],
    ]);
  });

  it('shares one working directory between the tools', async () => {
    const [terminal, readTool, writeTool] = createBuiltinTools({ cwd: dir });
    const { context } = createFakeContext();
    if (!terminal || !readTool || !writeTool) throw new Error('missing tool');
    await callTool(writeTool, { path: 'notes/a.txt', content: 'from write_file\n' }, context);
    expect((await callTool(terminal, { command: 'cat notes/a.txt' }, context)).output).toBe('from write_file\n');
    await callTool(terminal, { command: 'echo from terminal > b.txt' }, context);
    expect((await callTool(readTool, { path: 'b.txt' }, context)).content).toBe('from terminal');
  });
});

describe('createBuiltinTools confinement options', () => {
  it('gives both file tools the roots and the protected HERMES_HOME', async () => {
    const hermesHome = path.join(dir, 'hermes-home');
    const other = path.join(dir, 'other');
    await mkdir(other, { recursive: true });
    await mkdir(hermesHome, { recursive: true });
    await writeFile(path.join(hermesHome, '.env'), 'X=1\n');
    const [, readTool, writeTool] = createBuiltinTools({ cwd: dir, fileRoots: [dir], hermesHomes: [hermesHome] });
    const { context } = createFakeContext();
    if (!readTool || !writeTool) throw new Error('missing tool');
    expect((await callTool(readTool, { path: 'hermes-home/.env' }, context)).error).toMatch(/protected path/);
    expect((await callTool(writeTool, { path: 'hermes-home/hooks/h/HOOK.yaml', content: 'x' }, context)).error).toMatch(
      /protected path/,
    );
    const narrow = createBuiltinTools({ cwd: dir, fileRoots: [other] });
    expect((await callTool(narrow[1]!, { path: 'b.txt' }, context)).error).toMatch(/outside the allowed folders/);
    expect((await callTool(narrow[2]!, { path: 'b.txt', content: 'x' }, context)).error).toMatch(/outside the allowed/);
  });
});

describe('docs/tools.md', () => {
  it('embeds the dangerous pattern table rendered from DANGEROUS_PATTERNS', async () => {
    const docs = await readFile(new URL('../../../../docs/tools.md', import.meta.url), 'utf8');
    expect(docs).toContain(renderDangerousPatternTable());
  });

  it('embeds the always-blocked floor table rendered from BLOCKED_FLOOR', async () => {
    const docs = await readFile(new URL('../../../../docs/tools.md', import.meta.url), 'utf8');
    expect(docs).toContain(`#### Always blocked\n`);
    expect(docs).toContain(renderDangerousPatternTable(BLOCKED_FLOOR));
  });
});
