// tools.terminal.backend: sandbox runs each command inside bubblewrap: the system read-only, only
// the working directory writable, a private /tmp, no network (a 127.0.0.1 server is unreachable)
// unless tools.terminal.network, HERMES_HOME and ~/.ssh hidden, the gateway's processes invisible.
// When bwrap is missing the tool refuses: it never runs a command unsandboxed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createExecuteCodeTool, createTerminalTool, probeSandbox, type TerminalToolOptions } from '@hermes/agent';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callTool, createFakeContext } from '../../packages/agent/test/tools/fake-tool-context.js';
import { runHermes, tempHome } from '../helpers/run-hermes.js';

const hasBwrap = spawnSync('bwrap', ['--version']).status === 0;
const hasCurl = spawnSync('sh', ['-c', 'command -v curl']).status === 0;
const { context } = createFakeContext();

let base: string;
let work: string;
let homeDir: string;
let hermesHome: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'hermes-sandbox-')));
  work = path.join(base, 'work');
  // HERMES_HOME and the home inside the writable working directory: only the hiding keeps them out
  homeDir = path.join(work, 'home');
  hermesHome = path.join(homeDir, '.hermes');
  await mkdir(path.join(homeDir, '.ssh'), { recursive: true });
  await mkdir(hermesHome, { recursive: true });
  await writeFile(path.join(homeDir, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n');
  await writeFile(path.join(hermesHome, '.env'), 'OPENAI_API_KEY=sk-hidden\n');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const sandboxed = (extra: TerminalToolOptions = {}) =>
  createTerminalTool({ cwd: work, backend: 'sandbox', homeDir, hermesHomes: [hermesHome], ...extra });
/** stderr joins stdout inside the shell, so the order of what a command prints is fixed */
const inOrder = (command: string) => `{ ${command}\n} 2>&1`;
const run = async (command: string, extra?: TerminalToolOptions) =>
  callTool(sandboxed(extra), { command: inOrder(command), timeout_s: 20 }, context);

describe('sandbox backend without bubblewrap', () => {
  it('refuses to run, never falls back to an unsandboxed run', async () => {
    const marker = path.join(work, 'ran');
    const result = await run(`touch ${marker}`, { bwrapPath: path.join(base, 'no-such-bwrap') });
    expect(result.error).toMatch(/tools\.terminal\.backend is "sandbox" but bubblewrap is not installed/);
    expect(result.error).toMatch(/never run unsandboxed/);
    expect(existsSync(marker)).toBe(false);
    expect(await probeSandbox(path.join(base, 'no-such-bwrap'))).toMatchObject({ ok: false });
  });
});

describe('hermes doctor with tools.terminal.backend: sandbox', () => {
  const sandboxHome = () => {
    const home = tempHome();
    writeFileSync(path.join(home, 'config.yaml'), 'tools:\n  terminal:\n    backend: sandbox\n');
    return home;
  };

  it('fails the terminal check when bwrap cannot be found', async () => {
    const r = await runHermes(['doctor'], {
      env: { HERMES_HOME: sandboxHome(), PATH: path.join(os.tmpdir(), 'no-bin-here') },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /✗ terminal: sandbox backend configured but bubblewrap is not installed.*refuses every command/,
    );
  });

  it.skipIf(!hasBwrap)('says the sandbox works when bwrap starts', async () => {
    const r = await runHermes(['doctor'], { env: { HERMES_HOME: sandboxHome() } });
    expect(r.stdout).toMatch(/✓ terminal: sandbox backend \(bubblewrap works; network off\)/);
  });
});

describe.skipIf(!hasBwrap)(
  hasBwrap ? 'sandbox backend (bwrap)' : 'sandbox backend (SKIPPED: bwrap is not installed)',
  () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      server = createServer((_req, res) => res.end('reached'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('the bwrap probe succeeds here', async () => {
      expect(await probeSandbox()).toEqual({ ok: true });
    });

    it('the working directory is writable, the system read-only', async () => {
      const result = await run('echo made > made.txt && cat made.txt; touch /usr/hermes-sandbox-test; echo "rc=$?"');
      expect(result.output).toMatch(/made/);
      expect(result.output).toMatch(/Read-only file system[\s\S]*rc=1/);
      expect(await readFile(path.join(work, 'made.txt'), 'utf8')).toBe('made\n');
      expect(existsSync('/usr/hermes-sandbox-test')).toBe(false);
    });

    it('runs execute_code snippets inside it too: HERMES_HOME hidden, the system read-only', async () => {
      const tool = createExecuteCodeTool({
        cwd: work,
        terminal: sandboxed(),
        backend: 'sandbox',
        hermesHomes: [hermesHome],
        homeDir,
      });
      const code = [
        'let out = "";',
        `try { out += require("node:fs").readFileSync(${JSON.stringify(path.join(hermesHome, '.env'))}, "utf8"); } catch (e) { out += e.code; }`,
        'try { require("node:fs").writeFileSync("/usr/hermes-snippet", "x"); } catch (e) { out += " " + e.code; }',
        'console.log(out);',
      ].join('\n');
      const result = await callTool(tool, { language: 'javascript', code, timeout_s: 20 }, context);
      // the hidden .env cannot be read (not there, or not readable), /usr cannot be written
      expect(result.exit_code).toBe(0);
      expect(result.output).toMatch(/^(ENOENT|EACCES) EROFS\n$/);
    });

    it('has a private /tmp', async () => {
      const hostFile = path.join(os.tmpdir(), `hermes-host-${process.pid}.txt`);
      await writeFile(hostFile, 'host');
      try {
        const result = await run(`cat ${hostFile}; echo inside > /tmp/hermes-inside-${process.pid}; echo done`);
        expect(result.output).toMatch(/No such file[\s\S]*done/);
        expect(existsSync(`/tmp/hermes-inside-${process.pid}`)).toBe(false);
      } finally {
        await rm(hostFile, { force: true });
      }
    });

    it('hides HERMES_HOME and ~/.ssh', async () => {
      const result = await run(
        `ls -A ${hermesHome} ${homeDir}/.ssh; cat ${hermesHome}/.env ${homeDir}/.ssh/id_ed25519; echo end`,
      );
      expect(result.output).not.toMatch(/sk-hidden|PRIVATE KEY/);
      expect(result.output).toMatch(/No such file[\s\S]*end/);
      // still there on the host, and a write inside the hidden folder does not reach it
      await run(`echo x > ${hermesHome}/hooks-evil`);
      expect(existsSync(path.join(hermesHome, 'hooks-evil'))).toBe(false);
      expect(await readFile(path.join(hermesHome, '.env'), 'utf8')).toContain('sk-hidden');
    });

    it('keeps a working directory inside HERMES_HOME usable while hiding the rest of it', async () => {
      const cache = path.join(hermesHome, 'cache');
      await mkdir(cache);
      const result = await callTool(
        createTerminalTool({ cwd: cache, backend: 'sandbox', homeDir, hermesHomes: [hermesHome] }),
        { command: inOrder(`echo ok > f && cat f && cat ${hermesHome}/.env; echo end`) },
        context,
      );
      expect(result.output).toMatch(/ok[\s\S]*(No such file|Permission denied)[\s\S]*end/);
      expect(result.output).not.toContain('sk-hidden');
    });

    it('with HERMES_HOME as the working directory (the installed service) still hides its secrets, state and code', async () => {
      await mkdir(path.join(hermesHome, 'hooks', 'h'), { recursive: true });
      await writeFile(path.join(hermesHome, 'hooks', 'h', 'HOOK.yaml'), 'name: h\n');
      await writeFile(path.join(hermesHome, 'config.yaml'), 'model: {}\n');
      const tool = createTerminalTool({ cwd: hermesHome, backend: 'sandbox', homeDir, hermesHomes: [hermesHome] });
      const result = await callTool(
        tool,
        {
          command:
            'echo ok > scratch.txt && cat scratch.txt; cat .env config.yaml; ls -A hooks; echo x > hooks/evil; echo end',
        },
        context,
      );
      expect(result.output).toMatch(/^ok\n/);
      expect(result.output).not.toMatch(/sk-hidden|model:|HOOK|^h$/m);
      expect(result.output).toMatch(/end/);
      // the command ran in the session's workspace, not in HERMES_HOME
      expect(await readFile(path.join(hermesHome, 'workspaces', 'sess_test', 'scratch.txt'), 'utf8')).toBe('ok\n');
      expect(existsSync(path.join(hermesHome, 'scratch.txt'))).toBe(false);
      expect(existsSync(path.join(hermesHome, 'hooks', 'evil'))).toBe(false);
    });

    it('issue #28 probe: in the service layout with no .env yet, a command cannot create .env or hooks/evil/', async () => {
      await rm(path.join(hermesHome, '.env'));
      const tool = createTerminalTool({ cwd: hermesHome, backend: 'sandbox', homeDir, hermesHomes: [hermesHome] });
      const planted = [
        `printf 'HERMES_ACCEPT_HOOKS=1\\n' > ${hermesHome}/.env`,
        `mkdir -p ${hermesHome}/hooks/evil && echo 'name: evil' > ${hermesHome}/hooks/evil/HOOK.yaml`,
        `cd .. && cd .. && echo 'HERMES_ACCEPT_HOOKS=1' > .env; mkdir -p hooks/evil2; echo 'x: 1' > skills.md`,
        'echo end',
      ];
      const result = await callTool(tool, { command: planted.join('; ') }, context);
      expect(result.output).toMatch(/end/);
      for (const p of ['.env', 'hooks', 'skills.md']) expect(existsSync(path.join(hermesHome, p))).toBe(false);
      expect(readdirSync(hermesHome).sort()).toEqual(['workspaces']);
    });

    it('cannot see the gateway process (no /proc/<pid>/environ)', async () => {
      const result = await run(`cat /proc/${process.pid}/environ; echo "rc=$?"`);
      expect(result.output).toMatch(/rc=1/);
    });

    it('scrubs the environment inside the sandbox too', async () => {
      const result = await run('env', {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', OPENAI_API_KEY: 'sk-env-leak' },
      });
      expect(result.output).not.toContain('sk-env-leak');
    });

    it('cannot reach a 127.0.0.1 server (node fetch, curl) without tools.terminal.network', async () => {
      const fetchCmd = `node -e "fetch('${url}').then(r => r.text()).then(t => console.log('got', t), e => console.log('fetch failed', e.cause?.code))"`;
      const viaNode = await run(fetchCmd);
      expect(viaNode.output).toMatch(/fetch failed/);
      expect(viaNode.output).not.toMatch(/got reached/);
      if (hasCurl) {
        const viaCurl = await run(`curl -sS -m 5 ${url}; echo "rc=$?"`);
        expect(viaCurl.output).not.toContain('reached');
        expect(viaCurl.output).toMatch(/rc=[1-9]/);
      }
      // the same command reaches it with the network on: the refusal above is the sandbox's doing
      const withNet = await run(fetchCmd, { network: true });
      expect(withNet.output).toMatch(/got reached/);
    });

    it('a timeout kills the sandboxed command', async () => {
      const tag = `${process.pid}7.25`;
      const result = await callTool(sandboxed(), { command: `sleep ${tag}`, timeout_s: 1 }, context);
      expect(result.timed_out).toBe(true);
      const left = spawnSync('pgrep', ['-f', `sleep ${tag}`])
        .stdout.toString()
        .trim();
      expect(left).toBe('');
    });
  },
);
