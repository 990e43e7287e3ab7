import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HookName } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../../../test/helpers/wait-for.js';
import {
  HookBus,
  readShellHooks,
  runShellHook,
  type ShellHookSpec,
  shellHookCallback,
  shellHookOwner,
} from '../../src/index.js';
import { recordingLogger, tempDir, writeScript } from './helpers.js';

const toolPayload = {
  toolName: 'terminal',
  args: { command: 'ls -la' },
  taskId: 't1',
  sessionId: 'sess_1',
  toolCallId: 'call_9',
};
const llmPayload = {
  sessionId: 'sess_1',
  userMessage: 'hello',
  conversationHistory: [{ role: 'user' as const, content: 'before' }],
  isFirstTurn: false,
  model: 'm',
  platform: 'cli',
};

function spec(event: HookName, command: string, extra: { matcher?: string; timeout?: number } = {}): ShellHookSpec {
  const { hooks, warnings } = readShellHooks(
    { [event]: [{ command, ...extra }] },
    { configPath: 'config.yaml', userHome: '/nonexistent' },
  );
  expect(warnings).toEqual([]);
  return hooks[0]!;
}

/** A bus with the given shell hooks registered (no consent involved: that is tested elsewhere). */
function busWith(specs: ShellHookSpec[], cwd: string) {
  const logger = recordingLogger();
  const bus = new HookBus({ logger });
  for (const s of specs)
    bus.register(s.event, shellHookCallback(s, s.event, { cwd, logger }), shellHookOwner(s), { timeoutMs: 10_000 });
  return { bus, logger };
}

describe('shell hook wire protocol', () => {
  it('pipes the seed payload for a tool event on stdin', async () => {
    const dir = tempDir();
    const out = join(dir, 'stdin.json');
    const script = writeScript(dir, 'capture.sh', `cat > '${out}'\n`);
    const report = await runShellHook(spec('pre_tool_call', script), 'pre_tool_call', toolPayload, { cwd: dir });
    expect(report.problem).toBeNull();
    expect(report.response.result).toBeNull();
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({
      hook_event_name: 'pre_tool_call',
      tool_name: 'terminal',
      tool_input: { command: 'ls -la' },
      session_id: 'sess_1',
      cwd: dir,
      extra: { task_id: 't1', tool_call_id: 'call_9' },
    });
  });

  it('non-tool events: tool_name and tool_input are null, every other field in extra by its wire name', async () => {
    const dir = tempDir();
    const out = join(dir, 'stdin.json');
    const script = writeScript(dir, 'capture.sh', `cat > '${out}'\n`);
    await runShellHook(spec('pre_llm_call', script), 'pre_llm_call', llmPayload, { cwd: dir });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({
      hook_event_name: 'pre_llm_call',
      tool_name: null,
      tool_input: null,
      session_id: 'sess_1',
      cwd: dir,
      extra: {
        user_message: 'hello',
        conversation_history: [{ role: 'user', content: 'before' }],
        is_first_turn: false,
        model: 'm',
        platform: 'cli',
      },
    });
    // subagent_stop: session_id is the parent session
    await runShellHook(
      spec('subagent_stop', script),
      'subagent_stop',
      {
        parentSessionId: 'sess_parent',
        childRole: null,
        childSummary: 'done',
        childStatus: 'completed',
        durationMs: 5,
      },
      { cwd: dir },
    );
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({
      session_id: 'sess_parent',
      extra: {
        parent_session_id: 'sess_parent',
        child_role: null,
        child_summary: 'done',
        child_status: 'completed',
        duration_ms: 5,
      },
    });
  });

  it('stringifies values JSON cannot hold instead of dropping them', async () => {
    const dir = tempDir();
    const out = join(dir, 'stdin.json');
    const script = writeScript(dir, 'capture.sh', `cat > '${out}'\n`);
    class Gateway {
      toString() {
        return '<gateway>';
      }
    }
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const args = {
      big: 10n,
      fn: () => 1,
      when: new Date(0),
      gw: new Gateway(),
      cyclic,
      missing: undefined,
      nan: Number.NaN,
    };
    await runShellHook(spec('pre_tool_call', script), 'pre_tool_call', { ...toolPayload, args }, { cwd: dir });
    const input = JSON.parse(readFileSync(out, 'utf8')).tool_input;
    expect(input).toEqual({
      big: '10',
      fn: '() => 1',
      when: '1970-01-01T00:00:00.000Z',
      gw: '<gateway>',
      cyclic: { name: 'loop', self: '[Circular]' },
      missing: null,
      nan: 'NaN',
    });
  });
});

describe('shell hook responses through the bus', () => {
  it('pre_tool_call: both block shapes block; the first block wins', async () => {
    const dir = tempDir();
    const claude = writeScript(
      dir,
      'claude.sh',
      `cat >/dev/null\nprintf '{"decision": "block", "reason": "Forbidden: rm -rf"}\\n'\n`,
    );
    const hermes = writeScript(
      dir,
      'hermes.sh',
      `cat >/dev/null\nprintf '{"action": "block", "message": "Hermes says no"}'\n`,
    );
    const one = busWith([spec('pre_tool_call', claude)], dir);
    expect(await one.bus.invoke('pre_tool_call', toolPayload)).toEqual({
      action: 'block',
      message: 'Forbidden: rm -rf',
    });
    const two = busWith([spec('pre_tool_call', hermes), spec('pre_tool_call', claude)], dir);
    expect(await two.bus.invoke('pre_tool_call', toolPayload)).toEqual({ action: 'block', message: 'Hermes says no' });
  });

  it('an explicit block without its text still blocks, with a message naming the hook', async () => {
    const dir = tempDir();
    const script = writeScript(dir, 'bare.sh', `printf '{"decision":"block"}'\n`);
    const { bus } = busWith([spec('pre_tool_call', script)], dir);
    expect(await bus.invoke('pre_tool_call', toolPayload)).toEqual({
      action: 'block',
      message: `blocked by shell hook ${script}`,
    });
  });

  it('{} and empty output are no-ops', async () => {
    const dir = tempDir();
    const empty = writeScript(dir, 'empty.sh', 'cat >/dev/null\n');
    const braces = writeScript(dir, 'braces.sh', "printf '{}\\n'\n");
    const { bus, logger } = busWith([spec('pre_tool_call', empty), spec('pre_tool_call', braces)], dir);
    expect(await bus.invoke('pre_tool_call', toolPayload)).toBeNull();
    expect(logger.lines).toEqual([]);
  });

  it('pre_llm_call: {"context"} is injected; several are joined in order', async () => {
    const dir = tempDir();
    const a = writeScript(dir, 'a.sh', `printf '{"context": "Today is Friday"}'\n`);
    const b = writeScript(dir, 'b.sh', `printf '{"context": "git: clean"}'\n`);
    const { bus } = busWith([spec('pre_llm_call', a), spec('pre_llm_call', b)], dir);
    expect(await bus.invoke('pre_llm_call', llmPayload)).toBe('Today is Friday\n\ngit: clean');
  });

  it('transform hooks: {"replace"} replaces the text', async () => {
    const dir = tempDir();
    const script = writeScript(dir, 'replace.sh', `printf '{"replace": "[summary: 2 lines]"}'\n`);
    const { bus } = busWith([spec('transform_terminal_output', script)], dir);
    const payload = { command: 'ls', output: 'a\nb\n', exitCode: 0, cwd: dir, taskId: null };
    expect(await bus.invoke('transform_terminal_output', payload)).toBe('[summary: 2 lines]');
  });

  it('pre_gateway_dispatch: skip / rewrite / allow are understood', async () => {
    const dir = tempDir();
    const script = writeScript(dir, 'skip.sh', `printf '{"action":"skip","reason":"muted"}'\n`);
    const { bus } = busWith([spec('pre_gateway_dispatch', script)], dir);
    const event = {
      kind: 'text' as const,
      platform: 'telegram',
      messageId: '1',
      text: 'hi',
      source: { platform: 'telegram', chatId: '1', chatType: 'dm' as const, userId: '1' },
      internal: false,
      receivedAt: 0,
      raw: null,
    };
    expect(
      await bus.invoke('pre_gateway_dispatch', {
        event,
        gateway: { platforms: () => [], send: async () => ({ ok: true }) },
        sessionStore: { ingest: async () => false },
      }),
    ).toEqual({
      action: 'skip',
      reason: 'muted',
    });
  });

  it('the matcher decides which tool calls spawn the hook at all', async () => {
    const dir = tempDir();
    const marker = join(dir, 'ran');
    const script = writeScript(
      dir,
      'mark.sh',
      `touch '${marker}'\nprintf '{"action":"block","message":"no writes"}'\n`,
    );
    const { bus } = busWith([spec('pre_tool_call', script, { matcher: 'write_file|patch' })], dir);
    expect(await bus.invoke('pre_tool_call', toolPayload)).toBeNull();
    expect(existsSync(marker)).toBe(false);
    expect(await bus.invoke('pre_tool_call', { ...toolPayload, toolName: 'write_file' })).toEqual({
      action: 'block',
      message: 'no writes',
    });
    expect(existsSync(marker)).toBe(true);
  });

  it('invalid JSON, a non-zero exit and a missing program are warnings naming the command; the turn goes on', async () => {
    const dir = tempDir();
    const bad = writeScript(dir, 'bad.sh', `echo 'this is not json'\n`);
    const failing = writeScript(
      dir,
      'fail.sh',
      `printf '{"action":"block","message":"ignored"}'\necho 'boom' >&2\nexit 3\n`,
    );
    const missing = join(dir, 'missing.sh');
    const { bus, logger } = busWith(
      [spec('pre_tool_call', bad), spec('pre_tool_call', failing), spec('pre_tool_call', missing)],
      dir,
    );
    expect(await bus.invoke('pre_tool_call', toolPayload)).toBeNull();
    const text = logger.text();
    expect(text).toContain(`shell hook pre_tool_call shell:${bad} printed invalid JSON: this is not json; ignored`);
    expect(text).toContain(`shell hook pre_tool_call shell:${failing} exited with code 3: boom; ignored`);
    expect(text).toContain(`shell hook pre_tool_call shell:${missing} could not start:`);
  });

  it('a hook that outlives its timeout is killed with its children and ignored', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'child.pid');
    const script = writeScript(dir, 'slow.sh', `sleep 30 &\necho $! > '${pidFile}'\nwait\n`);
    const { bus, logger } = busWith([spec('pre_llm_call', script, { timeout: 0.3 })], dir);
    const started = Date.now();
    expect(await bus.invoke('pre_llm_call', llmPayload)).toBeNull();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(logger.text()).toContain(`shell hook pre_llm_call shell:${script} timed out after 0.3 s; killed; ignored`);
    const child = Number(readFileSync(pidFile, 'utf8'));
    // alive = exists and is not a zombie waiting for init to reap it
    const alive = () => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${child}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    await waitFor(() => !alive(), { what: 'the killed hook gone' });
  });
});
