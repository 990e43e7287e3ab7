// Shell hooks (the hooks: block of config.yaml) through the real CLI: consent, blocking a terminal
// call, injecting context, the `hermes hooks` commands, and the gateway.
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';

const openai = useFakeOpenAI();

const chatRequests = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const messagesOf = (i: number) => (chatRequests()[i]!.body as { messages: ChatMessage[] }).messages;
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

const BLOCK_SH = `#!/bin/sh
payload=$(cat)
printf '%s\\n' "$payload" >> "$HOOK_LOG"
case "$payload" in
  *'rm -rf'*) printf '{"decision": "block", "reason": "blocked: rm -rf is not permitted"}\\n' ;;
  *) printf '{}\\n' ;;
esac
`;

const CONTEXT_SH = `#!/bin/sh
cat >/dev/null
printf '{"context": "Today is Friday"}\\n'
`;

interface Home {
  home: string;
  block: string;
  context: string;
  hookLog: string;
  env: Record<string, string>;
}

function writeScript(path: string, body: string): string {
  writeFileSync(path, body);
  chmodSync(path, 0o755);
  return path;
}

function homeWithHooks(): Home {
  const home = tempHome();
  const dir = join(home, 'agent-hooks');
  mkdirSync(dir);
  const block = writeScript(join(dir, 'block-rm-rf.sh'), BLOCK_SH);
  const context = writeScript(join(dir, 'inject-context.sh'), CONTEXT_SH);
  writeFileSync(
    join(home, 'config.yaml'),
    `hooks:
  pre_tool_call:
    - matcher: terminal
      command: ${block}
      timeout: 5
  pre_llm_call:
    - command: ${context}
`,
  );
  const hookLog = join(home, 'hook-stdin.jsonl');
  return {
    home,
    block,
    context,
    hookLog,
    env: {
      HERMES_HOME: home,
      OPENAI_BASE_URL: openai.server.url,
      HERMES_INFERENCE_MODEL: 'test-model',
      HOOK_LOG: hookLog,
    },
  };
}

const allowlist = (h: Home) => JSON.parse(readFileSync(join(h.home, 'shell-hooks-allowlist.json'), 'utf8'));

describe('shell hooks through hermes -z', () => {
  it('skips hooks without consent; with it, a hook blocks a terminal call and another injects context', async () => {
    const h = homeWithHooks();

    // no TTY and no escape hatch: nothing runs, a warning says how to consent
    openai.server.script({ text: 'no hooks ran' });
    const skipped = await runHermes(['-z', 'go'], { env: h.env });
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).toBe('no hooks ran\n');
    expect(skipped.stderr).toContain(
      `shell hook pre_tool_call "${h.block}" not registered: it has not been allowed yet`,
    );
    expect(skipped.stderr).toContain(`shell hook pre_llm_call "${h.context}" not registered`);
    expect(skipped.stderr).toContain('--accept-hooks');
    expect(messagesOf(0).at(-1)).toEqual({ role: 'user', content: 'go' });

    // HERMES_ACCEPT_HOOKS=1: registered, consent recorded with the scripts' hashes
    openai.server.reset();
    openai.server.script(
      {
        toolCalls: [
          { name: 'terminal', arguments: { command: 'rm -rf /tmp/hermes-shell-hook-e2e-nothing' } },
          { name: 'terminal', arguments: { command: 'echo fine' } },
        ],
      },
      { text: 'done' },
    );
    const r = await runHermes(['-z', 'go'], { env: { ...h.env, HERMES_ACCEPT_HOOKS: '1' } });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('done\n');
    expect(r.code).toBe(0);
    // the context reaches this turn's user message
    expect(messagesOf(0).at(-1)).toEqual({ role: 'user', content: 'go\n\nToday is Friday' });
    const tools = messagesOf(1)
      .filter((m) => m.role === 'tool')
      .map((m) => JSON.parse(String(m.content)));
    expect(tools[0]).toEqual({ error: 'blocked: rm -rf is not permitted', blocked: true });
    expect(tools[1].output).toContain('fine');
    // what the script read on stdin
    const payloads = readFileSync(h.hookLog, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(payloads).toHaveLength(2);
    const blocked = payloads.find((p) => String(p.tool_input.command).startsWith('rm'));
    expect(blocked).toMatchObject({
      hook_event_name: 'pre_tool_call',
      tool_name: 'terminal',
      tool_input: { command: 'rm -rf /tmp/hermes-shell-hook-e2e-nothing' },
      cwd: process.cwd(),
      extra: { task_id: expect.any(String), tool_call_id: expect.any(String) },
    });
    expect(blocked.session_id).toMatch(/^sess_/);
    expect(allowlist(h)).toMatchObject({
      version: 1,
      approvals: [
        {
          event: 'pre_tool_call',
          command: h.block,
          script: h.block,
          sha256: sha256(h.block),
          via: 'HERMES_ACCEPT_HOOKS',
        },
        {
          event: 'pre_llm_call',
          command: h.context,
          script: h.context,
          sha256: sha256(h.context),
          via: 'HERMES_ACCEPT_HOOKS',
        },
      ],
    });

    // consent is on file: the next run needs no escape hatch
    openai.server.reset();
    openai.server.script({ text: 'again' });
    const again = await runHermes(['-z', 'go'], { env: h.env });
    expect(again.stderr).toBe('');
    expect(messagesOf(0).at(-1)).toEqual({ role: 'user', content: 'go\n\nToday is Friday' });

    // an edited script needs consent again
    writeFileSync(h.context, CONTEXT_SH.replace('Friday', 'Saturday'));
    openai.server.reset();
    openai.server.script({ text: 'edited' });
    const edited = await runHermes(['-z', 'go'], { env: h.env });
    expect(edited.code).toBe(0);
    expect(edited.stderr).toContain(`its script ${h.context} changed since it was allowed`);
    expect(messagesOf(0).at(-1)).toEqual({ role: 'user', content: 'go' });
    openai.server.reset();
    openai.server.script({ text: 'accepted' });
    const accepted = await runHermes(['--accept-hooks', '-z', 'go'], { env: h.env });
    expect(accepted.stderr).toBe('');
    expect(messagesOf(0).at(-1)).toEqual({ role: 'user', content: 'go\n\nToday is Saturday' });
    expect(allowlist(h).approvals[1]).toMatchObject({ sha256: sha256(h.context), via: '--accept-hooks' });
  });
});

describe('hermes hooks', () => {
  it('list, test, doctor and revoke', async () => {
    const h = homeWithHooks();
    const consent = await runHermes(['hooks', 'list', '--json'], { env: h.env });
    expect(consent.code).toBe(0);
    expect(JSON.parse(consent.stdout)).toEqual({
      shell: [
        {
          event: 'pre_tool_call',
          matcher: 'terminal',
          timeout: 5,
          command: h.block,
          script: h.block,
          sha256: sha256(h.block),
          consent: 'not_allowed',
        },
        {
          event: 'pre_llm_call',
          matcher: null,
          timeout: 60,
          command: h.context,
          script: h.context,
          sha256: sha256(h.context),
          consent: 'not_allowed',
        },
      ],
      gateway: [],
    });

    // doctor runs nothing without consent, and says so
    const before = await runHermes(['hooks', 'doctor'], { env: h.env });
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('✗ run: not run: needs consent first');

    // `hooks test` fires the hook with the example payload, --payload-file merged over it
    const payloadFile = join(h.home, 'payload.json');
    writeFileSync(payloadFile, JSON.stringify({ tool_input: { command: 'rm -rf /' } }));
    const blocked = await runHermes(['hooks', 'test', 'pre_tool_call', '--payload-file', payloadFile], { env: h.env });
    expect(blocked.code).toBe(0);
    expect(blocked.stdout).toContain(`shell:${h.block}  (pre_tool_call, matcher terminal, consent: not allowed)`);
    expect(blocked.stdout).toContain('result: block: blocked: rm -rf is not permitted');
    const otherTool = await runHermes(['hooks', 'test', 'pre_tool_call', '--for-tool', 'read_file'], { env: h.env });
    expect(otherTool.stdout).toContain('skipped: matcher terminal does not match tool read_file');
    const context = await runHermes(['hooks', 'test', 'pre_llm_call', '--json'], { env: h.env });
    expect(JSON.parse(context.stdout)).toMatchObject([
      {
        hook: `shell:${h.context}`,
        ran: true,
        exitCode: 0,
        result: 'Today is Friday',
        response: { context: 'Today is Friday' },
      },
    ]);

    // after consent, doctor runs each hook once and is happy
    await runHermes(['hooks', 'doctor', '--accept-hooks'], { env: h.env });
    expect(existsSync(join(h.home, 'shell-hooks-allowlist.json'))).toBe(false); // doctor never records consent
    openai.server.script({ text: 'ok' });
    await runHermes(['--accept-hooks', '-z', 'hi'], { env: h.env });
    const doctor = await runHermes(['hooks', 'doctor'], { env: h.env });
    expect(doctor.stdout).toContain(`✓ pre_tool_call  ${h.block}`);
    expect(doctor.stdout).toMatch(/✓ run: exit 0 in \d+ ms, valid JSON; no block/);
    expect(doctor.stdout).toMatch(/✓ run: exit 0 in \d+ ms, valid JSON; context: "Today is Friday"/);
    expect(doctor.code).toBe(0);

    // drift
    writeFileSync(h.block, `${BLOCK_SH}# edited\n`);
    const drift = await runHermes(['hooks', 'doctor', '--json'], { env: h.env });
    expect(drift.code).toBe(1);
    const checks = JSON.parse(drift.stdout).hooks[0].checks;
    expect(checks[1]).toMatchObject({ check: 'consent', ok: false });
    expect(checks[1].detail).toContain(`script drift: ${h.block} has sha256 ${sha256(h.block).slice(0, 12)}`);

    // revoke
    const revoked = await runHermes(['hooks', 'revoke', h.block], { env: h.env });
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(`Revoked 1 approval of "${h.block}" (pre_tool_call)`);
    expect(allowlist(h).approvals.map((a: { command: string }) => a.command)).toEqual([h.context]);
    const again = await runHermes(['hooks', 'revoke', h.block], { env: h.env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no shell-hook approval for "${h.block}"`);

    // gateway hooks: listed with their events, handler and consent, or why the folder is invalid; tested dry
    const hookDir = join(h.home, 'hooks', 'ender');
    mkdirSync(hookDir, { recursive: true });
    mkdirSync(join(h.home, 'hooks', 'broken'));
    writeFileSync(join(hookDir, 'HOOK.yaml'), 'name: ender\ndescription: says bye\nevents:\n  - agent:end\n');
    writeFileSync(
      join(hookDir, 'handler.mjs'),
      'export async function handle(type, ctx, hermes) { await hermes.send("telegram", "bye " + ctx.response); return "sent"; }\n',
    );
    const list = JSON.parse((await runHermes(['hooks', 'list', '--json'], { env: h.env })).stdout);
    expect(list.gateway).toEqual([
      {
        name: 'ender',
        description: 'says bye',
        events: ['agent:end'],
        dir: hookDir,
        handler: join(hookDir, 'handler.mjs'),
        error: null,
        consent: 'pending',
        pending_reason: 'new',
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
      {
        name: 'broken',
        description: '',
        events: [],
        dir: join(h.home, 'hooks', 'broken'),
        handler: null,
        error: expect.stringContaining('no HOOK.yaml'),
        consent: null,
        pending_reason: null,
        sha256: null,
      },
    ]);
    // a gateway hook runs in `hooks test` only once approved, as in the gateway
    const unapproved = await runHermes(['hooks', 'test', 'agent:end'], { env: h.env });
    expect(unapproved.code).toBe(1);
    expect(unapproved.stdout).toContain('not run: not approved (new)');
    expect((await runHermes(['hooks', 'approve', 'ender'], { env: h.env })).code).toBe(0);
    const gatewayTest = await runHermes(['hooks', 'test', 'agent:end'], { env: h.env });
    expect(gatewayTest.code).toBe(0);
    expect(gatewayTest.stdout).toContain('gateway:ender  (agent:end)');
    expect(gatewayTest.stdout).toContain('would send telegram: bye Sunny');

    // a misspelt event: usage error with a suggestion
    const typo = await runHermes(['hooks', 'test', 'pre_llm_cal'], { env: h.env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('did you mean "pre_llm_call"?');
  });
});

describe('shell hooks in hermes gateway run', () => {
  it('registers consented hooks, never prompts, and warns about the others', async () => {
    const h = homeWithHooks();
    // the context hook is consented on file; the block hook is not
    writeFileSync(
      join(h.home, 'shell-hooks-allowlist.json'),
      JSON.stringify({
        version: 1,
        approvals: [
          {
            event: 'pre_llm_call',
            command: h.context,
            script: h.context,
            sha256: sha256(h.context),
            approved_at: '',
            via: 'prompt',
          },
        ],
      }),
    );
    openai.server.script({ text: 'from the gateway' });
    const gw = await spawnGateway(h.env);
    try {
      expect(gw.stderr()).toContain(
        `shell hook pre_tool_call "${h.block}" not registered: it has not been allowed yet`,
      );
      const res = await fetch(`${gw.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'hermes', messages: [{ role: 'user', content: 'hello' }] }),
      });
      expect(res.status).toBe(200);
      expect(messagesOf(0).at(-1)).toEqual({ role: 'user', content: 'hello\n\nToday is Friday' });
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  });
});
