import { execFileSync } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createExecuteCodeTool } from '../../src/tools/execute-code-tool.js';
import { createTerminalTool } from '../../src/tools/terminal-tool.js';
import { callTool, createFakeContext, makeTempDir } from './fake-tool-context.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const tool = (options: { yolo?: boolean; extraDangerousPatterns?: string[] } = {}) =>
  createExecuteCodeTool({ cwd: dir, terminal: createTerminalTool({ cwd: dir }), ...options });
const hasPython = (() => {
  try {
    execFileSync('python3', ['-c', '0']);
    return true;
  } catch {
    return false;
  }
})();

describe('execute_code', () => {
  it.skipIf(!hasPython)(
    'runs python: what it printed, in order, and its exit code; the snippet file is gone after',
    async () => {
      const { context } = createFakeContext();
      const result = await callTool(
        tool(),
        {
          language: 'python',
          code: 'import sys\nprint(sum(range(10)))\nprint("oops", file=sys.stderr)\nopen("out.txt","w").write("x")\nsys.exit(3)',
        },
        context,
      );
      expect(result).toEqual({ output: '45\noops\n', exit_code: 3 });
      expect((await readdir(dir)).sort()).toEqual(['.hermes-code', 'out.txt']);
      expect(await readdir(path.join(dir, '.hermes-code'))).toEqual([]);
    },
  );

  it.skipIf(!hasPython)(
    "limits a python snippet's memory (ulimit -v): a large allocation fails inside it",
    async () => {
      const { context } = createFakeContext();
      const result = await callTool(
        tool(),
        {
          language: 'python',
          code: 'try:\n    b = bytearray(400 * 1024 * 1024)\n    print("allocated")\nexcept MemoryError:\n    print("MemoryError")',
          memory_mb: 128,
        },
        context,
      );
      expect(result).toEqual({ output: 'MemoryError\n', exit_code: 0 });
    },
  );

  it('runs javascript and bash', async () => {
    const { context } = createFakeContext();
    expect(
      await callTool(tool(), { language: 'javascript', code: 'console.log(JSON.stringify({a: 2 ** 10}))' }, context),
    ).toEqual({
      output: '{"a":1024}\n',
      exit_code: 0,
    });
    expect(
      await callTool(
        tool(),
        { language: 'javascript', code: "import os from 'node:os';\nconsole.log(typeof os.cpus)" },
        context,
      ),
    ).toEqual({
      output: 'function\n',
      exit_code: 0,
    });
    expect(await callTool(tool(), { language: 'bash', code: 'echo "$((6 * 7))"' }, context)).toEqual({
      output: '42\n',
      exit_code: 0,
    });
  });

  it('kills a snippet at its time limit and one over its memory limit', async () => {
    const { context } = createFakeContext();
    const slow = await callTool(
      tool(),
      { language: 'javascript', code: 'setInterval(() => {}, 1000)', timeout_s: 1 },
      context,
    );
    expect(slow).toMatchObject({ timed_out: true });
    const hungry = await callTool(
      tool(),
      {
        language: 'javascript',
        code: 'const a = []; for (;;) a.push(new Array(1e6).fill(1));',
        memory_mb: 32,
        timeout_s: 60,
      },
      context,
    );
    expect(hungry.exit_code).not.toBe(0);
    expect(String(hungry.output)).toMatch(/heap out of memory|Allocation failed/i);
  });

  it('asks before running a dangerous snippet (showing the code), refuses the always-blocked floor, names a bad language', async () => {
    const { context, approvals } = createFakeContext({ approval: 'deny' });
    const denied = await callTool(tool(), { language: 'bash', code: 'echo hi\nsudo apt-get install jq' }, context);
    expect(denied).toMatchObject({ denied: true });
    expect(approvals[0]?.command).toBe('bash snippet:\necho hi\nsudo apt-get install jq');
    const blocked = await callTool(
      tool({ yolo: true }),
      { language: 'python', code: 'import os\nos.system("rm -rf /")' },
      context,
    );
    expect(blocked).toMatchObject({ code: 'blocked', error: expect.stringMatching(/never runs this code/) });
    expect((await callTool(tool(), { language: 'ruby', code: 'puts 1' }, context)).error).toMatch(
      /"language": expected one of python, javascript, bash, got "ruby"/,
    );
  });
});
