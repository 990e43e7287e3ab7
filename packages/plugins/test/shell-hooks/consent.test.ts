import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  autoAcceptVia,
  type ConsentRequest,
  HookBus,
  type RegisterShellHooksOptions,
  registerShellHooks,
  type ShellHooksConfig,
} from '../../src/index.js';
import { recordingLogger, tempDir, writeScript } from './helpers.js';

const toolPayload = { toolName: 'terminal', args: { command: 'ls' }, taskId: '', sessionId: 's', toolCallId: 'c' };
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

interface Setup {
  dir: string;
  script: string;
  allowlist: string;
  hooks: ShellHooksConfig;
}

function setup(): Setup {
  const dir = tempDir();
  const script = writeScript(
    dir,
    'block.sh',
    `cat >/dev/null\nprintf '{"decision":"block","reason":"shell says no"}'\n`,
  );
  return {
    dir,
    script,
    allowlist: join(dir, 'home', 'shell-hooks-allowlist.json'),
    hooks: { pre_tool_call: [{ matcher: 'terminal', command: script }] },
  };
}

async function register(s: Setup, options: Partial<RegisterShellHooksOptions> = {}) {
  const bus = new HookBus();
  const warnings: string[] = [];
  const logger = recordingLogger();
  const result = await registerShellHooks({
    bus,
    hooks: s.hooks,
    configPath: join(s.dir, 'config.yaml'),
    allowlistPath: s.allowlist,
    userHome: s.dir,
    cwd: s.dir,
    autoAccept: null,
    prompt: null,
    logger,
    warn: (m) => warnings.push(m),
    now: () => new Date('2026-04-17T10:00:00.000Z'),
    ...options,
  });
  return { bus, warnings, result, logger };
}

const readAllowlist = (s: Setup) => JSON.parse(readFileSync(s.allowlist, 'utf8'));

describe('shell hook consent', () => {
  it('asks once per new hook; yes registers it as shell:<command> and records event, command, script and sha256', async () => {
    const s = setup();
    const asked: ConsentRequest[] = [];
    const first = await register(s, {
      prompt: async (request) => {
        asked.push(request);
        return true;
      },
    });
    expect(asked).toEqual([
      {
        event: 'pre_tool_call',
        command: s.script,
        matcher: 'terminal',
        script: { path: s.script, sha256: sha256(s.script) },
        state: 'not_allowed',
      },
    ]);
    expect(first.warnings).toEqual([]);
    expect(first.bus.registrations()).toEqual([
      { hook: 'pre_tool_call', owner: { source: 'shell', name: s.script }, timeoutMs: 62_000 },
    ]);
    expect(await first.bus.invoke('pre_tool_call', toolPayload)).toEqual({ action: 'block', message: 'shell says no' });
    expect(readAllowlist(s)).toEqual({
      version: 1,
      approvals: [
        {
          kind: 'shell',
          event: 'pre_tool_call',
          command: s.script,
          script: s.script,
          sha256: sha256(s.script),
          approved_at: '2026-04-17T10:00:00.000Z',
          via: 'prompt',
        },
      ],
    });
    expect(statSync(s.allowlist).mode & 0o777).toBe(0o600);

    // next start: on file, no prompt, even non-interactive
    const second = await register(s);
    expect(second.warnings).toEqual([]);
    expect(second.result.registered.map((r) => r.consent)).toEqual(['allowlist']);
  });

  it('no at the prompt: not registered, nothing recorded, asked again next time', async () => {
    const s = setup();
    const { bus, warnings, result } = await register(s, { prompt: async () => false });
    expect(bus.count()).toBe(0);
    expect(result.skipped).toMatchObject([{ state: 'not_allowed', declined: true }]);
    expect(warnings).toEqual([`shell hook pre_tool_call "${s.script}" not registered: not allowed at the prompt`]);
    expect(existsSync(s.allowlist)).toBe(false);
  });

  it('non-interactive without consent: skipped with a warning saying how to consent', async () => {
    const s = setup();
    const { bus, warnings } = await register(s);
    expect(bus.count()).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`shell hook pre_tool_call "${s.script}" not registered: it has not been allowed yet`);
    expect(warnings[0]).toContain('--accept-hooks');
    expect(warnings[0]).toContain('HERMES_ACCEPT_HOOKS=1');
    expect(warnings[0]).toContain('hooks_auto_accept: true');
    expect(existsSync(s.allowlist)).toBe(false);
  });

  it.each([
    ['--accept-hooks', { flag: true, env: {}, config: false }],
    ['HERMES_ACCEPT_HOOKS', { flag: false, env: { HERMES_ACCEPT_HOOKS: '1' }, config: false }],
    ['hooks_auto_accept', { flag: false, env: { HERMES_ACCEPT_HOOKS: '0' }, config: true }],
  ] as const)('escape hatch %s registers without asking and records the consent', async (via, sources) => {
    const s = setup();
    expect(autoAcceptVia(sources)).toBe(via);
    const { bus, warnings } = await register(s, {
      autoAccept: autoAcceptVia(sources),
      prompt: async () => {
        throw new Error('must not ask');
      },
    });
    expect(warnings).toEqual([]);
    expect(bus.count('pre_tool_call')).toBe(1);
    expect(readAllowlist(s).approvals).toMatchObject([
      { event: 'pre_tool_call', command: s.script, sha256: sha256(s.script), via },
    ]);
  });

  it('no escape hatch: HERMES_ACCEPT_HOOKS unset or 0, flag and config off', () => {
    expect(autoAcceptVia({ flag: false, env: {}, config: false })).toBeNull();
    expect(autoAcceptVia({ flag: false, env: { HERMES_ACCEPT_HOOKS: '0' }, config: false })).toBeNull();
    expect(autoAcceptVia({ flag: false, env: { HERMES_ACCEPT_HOOKS: 'TRUE' }, config: false })).toBe(
      'HERMES_ACCEPT_HOOKS',
    );
  });

  it('an edited script needs consent again: non-interactive skip, then the prompt says it changed', async () => {
    const s = setup();
    await register(s, { autoAccept: '--accept-hooks' });
    const oldHash = sha256(s.script);
    writeFileSync(s.script, `#!/bin/sh\nprintf '{"decision":"block","reason":"edited"}'\n`);

    const skipped = await register(s);
    expect(skipped.bus.count()).toBe(0);
    expect(skipped.warnings[0]).toContain(`its script ${s.script} changed since it was allowed`);

    const asked: ConsentRequest[] = [];
    const again = await register(s, {
      prompt: async (r) => {
        asked.push(r);
        return true;
      },
    });
    expect(asked.map((r) => r.state)).toEqual(['script_changed']);
    expect(await again.bus.invoke('pre_tool_call', toolPayload)).toEqual({ action: 'block', message: 'edited' });
    const approvals = readAllowlist(s).approvals;
    expect(approvals).toHaveLength(1); // replaced, not appended
    expect(approvals[0].sha256).toBe(sha256(s.script));
    expect(approvals[0].sha256).not.toBe(oldHash);
    expect(approvals[0].via).toBe('prompt');
  });

  it('a script edited while running is not run until approved again', async () => {
    const s = setup();
    const { bus, logger } = await register(s, { autoAccept: 'hooks_auto_accept' });
    expect(await bus.invoke('pre_tool_call', toolPayload)).toEqual({ action: 'block', message: 'shell says no' });
    writeFileSync(s.script, '#!/bin/sh\nrm -rf "$HOME"\n');
    expect(await bus.invoke('pre_tool_call', toolPayload)).toBeNull();
    expect(logger.text()).toContain(`script ${s.script} changed since it was allowed; not run`);
  });

  it('binds consent to the script an interpreter runs, or to the command alone when there is none', async () => {
    const s = setup();
    const py = writeScript(s.dir, 'ctx.sh', `printf '{"context":"from sh"}'\n`);
    s.hooks = { pre_llm_call: [{ command: `sh -e ${py}` }, { command: 'true' }] };
    await register(s, { autoAccept: '--accept-hooks' });
    expect(
      readAllowlist(s).approvals.map((a: { command: string; script: string | null; sha256: string | null }) => [
        a.command,
        a.script,
        a.sha256,
      ]),
    ).toEqual([
      [`sh -e ${py}`, py, sha256(py)],
      ['true', null, null],
    ]);
  });

  it('consent is per (event, command): the same command on another event asks again', async () => {
    const s = setup();
    await register(s, { autoAccept: '--accept-hooks' });
    s.hooks = { ...s.hooks, post_tool_call: [{ command: s.script }] };
    const asked: string[] = [];
    await register(s, {
      prompt: async (r) => {
        asked.push(r.event);
        return true;
      },
    });
    expect(asked).toEqual(['post_tool_call']);
  });

  it('a corrupt allowlist is a warning and counts as empty', async () => {
    const s = setup();
    await register(s, { autoAccept: '--accept-hooks' });
    writeFileSync(s.allowlist, '{not json');
    const { warnings, bus } = await register(s);
    expect(warnings[0]).toBe(`${s.allowlist} is not valid JSON; treated as empty`);
    expect(bus.count()).toBe(0);
  });

  it('config warnings come through warn(), and registered shell hooks run after plugins (plugin blocks win ties)', async () => {
    const s = setup();
    s.hooks = { ...s.hooks, pre_tool_cal: [{ command: 'x' }] };
    const bus = new HookBus();
    bus.register('pre_tool_call', () => ({ action: 'block' as const, message: 'plugin first' }), {
      source: 'plugin',
      name: 'p',
    });
    const warnings: string[] = [];
    await registerShellHooks({
      bus,
      hooks: s.hooks,
      configPath: '/h/config.yaml',
      allowlistPath: s.allowlist,
      userHome: s.dir,
      cwd: s.dir,
      autoAccept: '--accept-hooks',
      prompt: null,
      warn: (m) => warnings.push(m),
    });
    expect(warnings).toEqual([
      '/h/config.yaml: hooks.pre_tool_cal[0]: unknown event "pre_tool_cal", did you mean "pre_tool_call"?; entry skipped',
    ]);
    expect(bus.registrations().map((r) => r.owner.source)).toEqual(['plugin', 'shell']);
    expect(await bus.invoke('pre_tool_call', toolPayload)).toEqual({ action: 'block', message: 'plugin first' });
  });
});
