import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES } from '@hermes/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../../test/helpers/wait-for.js';
import { createTerminalTool } from '../../src/tools/index.js';
import { callTool, createFakeContext, makeTempDir } from './fake-tool-context.js';

let dir: string;

beforeEach(async () => {
  dir = await makeTempDir();
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Pids of live (non-zombie) members of process group `pgid`: from /proc on Linux, else via kill(-pgid, 0). */
function liveGroupMembers(pgid: number): number[] {
  if (!existsSync('/proc/self/stat')) {
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // after "pid (comm) ": state ppid pgrp ...
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(entry));
  }
  return members;
}

describe('terminal: running commands', () => {
  it('returns combined output and the exit code; a non-zero exit is data, not an error', async () => {
    const tool = createTerminalTool({ cwd: dir });
    const { context } = createFakeContext();
    const result = await callTool(
      tool,
      { command: 'echo out; sleep 0.2; echo err >&2; sleep 0.2; echo out2; exit 3' },
      context,
    );
    expect(result).toEqual({ output: 'out\nerr\nout2\n', exit_code: 3 });
  });

  it('runs in options.cwd by default and resolves a relative cwd argument against it', async () => {
    await mkdir(path.join(dir, 'sub'));
    const tool = createTerminalTool({ cwd: dir });
    const { context } = createFakeContext();
    expect((await callTool(tool, { command: 'pwd' }, context)).output).toBe(`${await realpath(dir)}\n`);
    expect((await callTool(tool, { command: 'pwd', cwd: 'sub' }, context)).output).toBe(
      `${await realpath(path.join(dir, 'sub'))}\n`,
    );
  });

  it('reports a missing working directory instead of running', async () => {
    const tool = createTerminalTool({ cwd: dir });
    const { context } = createFakeContext();
    const result = await callTool(tool, { command: 'touch marker', cwd: 'nope' }, context);
    expect(result.error).toBe(`Working directory not found: ${path.join(dir, 'nope')}`);
  });

  it('closes stdin so a command waiting for input ends at once', async () => {
    const tool = createTerminalTool({ cwd: dir, timeoutMs: 10_000 });
    const { context } = createFakeContext();
    const started = Date.now();
    const result = await callTool(tool, { command: 'cat; echo done' }, context);
    expect(result).toEqual({ output: 'done\n', exit_code: 0 });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('terminal: timeout and interruption', () => {
  it('kills a command at timeout_s and reports timed_out', async () => {
    const tool = createTerminalTool({ cwd: dir });
    const { context } = createFakeContext();
    const started = Date.now();
    const result = await callTool(tool, { command: 'echo started; sleep 30', timeout_s: 1 }, context);
    const elapsedMs = Date.now() - started;
    expect(result).toMatchObject({ output: 'started\n', exit_code: 143, timed_out: true });
    expect(result.interrupted).toBeUndefined();
    expect(elapsedMs).toBeGreaterThanOrEqual(900);
    expect(elapsedMs).toBeLessThan(5_000);
  });

  it('uses options.timeoutMs when no timeout_s is given, and clamps tiny timeouts to 1 s', async () => {
    const tool = createTerminalTool({ cwd: dir, timeoutMs: 10 });
    const { context } = createFakeContext();
    const started = Date.now();
    const result = await callTool(tool, { command: 'sleep 30' }, context);
    expect(result.timed_out).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('kills the whole process group when the signal aborts', async () => {
    const tool = createTerminalTool({ cwd: dir });
    const { context, controller } = createFakeContext();
    // aborted once the shell has started both sleeps and printed their pids
    void waitFor(() => existsSync(path.join(dir, 'started')), { what: 'the command started' }).then(() =>
      controller.abort(),
    );
    const started = Date.now();
    const result = await callTool(
      tool,
      { command: 'sleep 30 & echo "bg=$!"; echo "sh=$$"; touch started; sleep 30', timeout_s: 60 },
      context,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.interrupted).toBe(true);
    expect(result.timed_out).toBeUndefined();
    const output = String(result.output);
    const backgroundPid = Number(/bg=(\d+)/.exec(output)?.[1]);
    const shellPid = Number(/sh=(\d+)/.exec(output)?.[1]);
    expect(backgroundPid).toBeGreaterThan(0);
    expect(shellPid).toBeGreaterThan(0);
    // the shell leads its own group; the background sleep was in it and must be gone too
    await expect.poll(() => liveGroupMembers(shellPid), { timeout: 4_000 }).toEqual([]);
    expect(liveGroupMembers(shellPid)).not.toContain(backgroundPid);
  });

  it('does not start a command when the signal is already aborted', async () => {
    const tool = createTerminalTool({ cwd: dir });
    const { context, controller } = createFakeContext();
    controller.abort();
    const result = await callTool(tool, { command: 'touch marker' }, context);
    expect(result).toEqual({ output: '', exit_code: -1, interrupted: true });
    expect(existsSync(path.join(dir, 'marker'))).toBe(false);
  });
});

describe('terminal: output pipeline', () => {
  it('gives transform_terminal_output the full raw output before capping and uses its replacement', async () => {
    const tool = createTerminalTool({ cwd: dir, maxOutputChars: 50 });
    const fake = createFakeContext({ taskId: '', transformTerminalOutput: () => 'REPLACED' });
    const command = "head -c 200 /dev/zero | tr '\\0' x; exit 4";
    const result = await callTool(tool, { command }, fake.context);
    expect(result).toEqual({ output: 'REPLACED', exit_code: 4 });
    expect(fake.hookCalls).toEqual([
      {
        hook: 'transform_terminal_output',
        payload: { command, output: 'x'.repeat(200), exitCode: 4, cwd: dir, taskId: null },
      },
    ]);
  });

  it('passes the hook raw (ANSI, secrets) and caps, strips and redacts its replacement in that order', async () => {
    const seen: string[] = [];
    const tool = createTerminalTool({
      cwd: dir,
      maxOutputChars: 60,
      secrets: () => ['hunter2'],
      redact: (text, secrets) => secrets.reduce((acc, s) => acc.replaceAll(s, '[REDACTED]'), text),
    });
    const fake = createFakeContext({
      transformTerminalOutput: (payload) => {
        seen.push(payload.output);
        return `${payload.output}${'y'.repeat(100)}\u001b[32mtail hunter2\u001b[0m`;
      },
    });
    const result = await callTool(tool, { command: "printf '\\033[31mred\\033[0m pw=hunter2'" }, fake.context);
    expect(seen).toEqual(['\u001b[31mred\u001b[0m pw=hunter2']);
    // 144 chars with escapes -> capped to 24 head + 36 tail (84 omitted), then stripped, then redacted;
    // stripping or redacting first would change the omitted count and the cut points.
    expect(result.output).toBe(
      `red pw=[REDACTED]y\n\n[... 84 characters omitted ...]\n\n${'y'.repeat(15)}tail [REDACTED]`,
    );
  });

  it('caps long output to its head and tail with an omission marker', async () => {
    const tool = createTerminalTool({ cwd: dir, maxOutputChars: 50 });
    const { context } = createFakeContext();
    const result = await callTool(
      tool,
      { command: "head -c 100 /dev/zero | tr '\\0' A; head -c 100 /dev/zero | tr '\\0' B" },
      context,
    );
    expect(result.output).toBe(`${'A'.repeat(20)}\n\n[... 150 characters omitted ...]\n\n${'B'.repeat(30)}`);
  });

  it('strips ANSI escape sequences', async () => {
    const tool = createTerminalTool({ cwd: dir });
    const { context } = createFakeContext();
    const result = await callTool(
      tool,
      { command: "printf '\\033[1;31mred\\033[0m \\033]0;title\\007plain\\n'" },
      context,
    );
    expect(result.output).toBe('red plain\n');
  });

  it('redacts the current secrets with the injected redactor, and leaves output alone by default', async () => {
    const secretsSeen: string[][] = [];
    const redacting = createTerminalTool({
      cwd: dir,
      secrets: () => ['s3cr3t'],
      redact: (text, secrets) => {
        secretsSeen.push(secrets);
        return text.replaceAll('s3cr3t', '***');
      },
    });
    const { context } = createFakeContext();
    expect((await callTool(redacting, { command: 'echo token=s3cr3t' }, context)).output).toBe('token=***\n');
    expect(secretsSeen).toEqual([['s3cr3t']]);
    const plain = createTerminalTool({ cwd: dir });
    expect((await callTool(plain, { command: 'echo token=s3cr3t' }, context)).output).toBe('token=s3cr3t\n');
  });

  it('keeps the raw output when the transform hook fails', async () => {
    const tool = createTerminalTool({ cwd: dir });
    const fake = createFakeContext({
      transformTerminalOutput: () => {
        throw new Error('hook bug');
      },
    });
    expect((await callTool(tool, { command: 'echo safe' }, fake.context)).output).toBe('safe\n');
  });
});

describe('terminal: dangerous commands', () => {
  // Dangerous only in a comment: safe to run, but it matches git_force_push.
  const flagged = 'touch marker # then git push --force';

  it('asks for approval with the matched keys and does not run on deny', async () => {
    const tool = createTerminalTool({ cwd: dir });
    const fake = createFakeContext({ approval: 'deny' });
    const command = 'sudo true; git reset --hard; touch marker';
    const result = await callTool(tool, { command }, fake.context);
    expect(fake.approvals).toEqual([
      {
        command,
        description: 'run with superuser privileges (sudo, doas, su); git reset --hard (discards uncommitted changes)',
        patternKey: 'sudo',
        patternKeys: ['sudo', 'git_reset_hard'],
      },
    ]);
    expect(result).toEqual({
      error:
        'Command denied by user: run with superuser privileges (sudo, doas, su); git reset --hard (discards uncommitted changes)',
      denied: true,
    });
    expect(existsSync(path.join(dir, 'marker'))).toBe(false);
  });

  it('treats an approval timeout as a denial', async () => {
    const tool = createTerminalTool({ cwd: dir });
    const fake = createFakeContext({ approval: 'timeout' });
    const result = await callTool(tool, { command: flagged }, fake.context);
    expect(result).toEqual({
      error: 'Command denied by user: approval timed out (force-push (rewrites remote history))',
      denied: true,
    });
    expect(existsSync(path.join(dir, 'marker'))).toBe(false);
  });

  it.each(['once', 'session', 'always'] as const)('runs the command when approved %s', async (choice) => {
    const tool = createTerminalTool({ cwd: dir });
    const fake = createFakeContext({ approval: choice });
    const result = await callTool(tool, { command: flagged }, fake.context);
    expect(fake.approvals.map((a) => a.patternKeys)).toEqual([['git_force_push']]);
    expect(result).toEqual({ output: '', exit_code: 0 });
    expect(existsSync(path.join(dir, 'marker'))).toBe(true);
  });

  it('runs without asking in yolo mode', async () => {
    const tool = createTerminalTool({ cwd: dir, yolo: true });
    const fake = createFakeContext({ approval: 'deny' });
    await callTool(tool, { command: flagged }, fake.context);
    expect(fake.approvals).toEqual([]);
    expect(existsSync(path.join(dir, 'marker'))).toBe(true);
  });

  it('does not ask for ordinary commands', async () => {
    const tool = createTerminalTool({ cwd: dir });
    const fake = createFakeContext({ approval: 'deny' });
    const result = await callTool(tool, { command: 'echo hi && ls -la && git status --short || true' }, fake.context);
    expect(fake.approvals).toEqual([]);
    expect(result.exit_code).toBe(0);
  });

  it('asks for extra patterns from the options', async () => {
    const tool = createTerminalTool({ cwd: dir, extraDangerousPatterns: [String.raw`\bnpm\s+publish\b`] });
    const fake = createFakeContext({ approval: 'deny' });
    await callTool(tool, { command: 'touch marker # NPM publish' }, fake.context);
    expect(fake.approvals.map((a) => a.patternKey)).toEqual([String.raw`custom:\bnpm\s+publish\b`]);
    expect(existsSync(path.join(dir, 'marker'))).toBe(false);
  });

  it('rejects invalid options when the tool is created', () => {
    expect(() => createTerminalTool({ extraDangerousPatterns: ['(unclosed'] })).toThrow(
      /extraDangerousPatterns.*\(unclosed/,
    );
    expect(() => createTerminalTool({ maxOutputChars: 0 })).toThrow(/maxOutputChars/);
    expect(() => createTerminalTool({ timeoutMs: -1 })).toThrow(/timeoutMs/);
  });
});

describe('terminal: arguments', () => {
  it.each([
    [{}, 'Missing required argument "command": expected a string'],
    [{ command: 42 }, 'Invalid argument "command": expected a string, got number'],
    [{ command: '  ' }, 'Invalid argument "command": expected a non-empty string'],
    [{ command: 'ls', timeout_s: '10' }, 'Invalid argument "timeout_s": expected a number, got string'],
    [{ command: 'ls', cwd: ['a'] }, 'Invalid argument "cwd": expected a string, got array'],
  ])('%j gives a named error', async (args, error) => {
    const tool = createTerminalTool({ cwd: dir });
    const fake = createFakeContext();
    expect(await callTool(tool, args, fake.context)).toEqual({ error, code: ERROR_CODES.TOOL_ARGS });
    expect(fake.hookCalls).toEqual([]);
  });
});
