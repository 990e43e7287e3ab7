// A job's pre-run script: the name resolved inside HERMES_HOME/scripts (no "..", subfolders or
// symlinks), run only as approved (sha256 of its bytes), its wake gate, fail-open on failure.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CronJobRow } from '@hermes/store';
import { afterAll, describe, expect, it } from 'vitest';
import { logText, recordingLogger } from '../../../../test/contract/recorders.js';
import { type CronScripts, preRun, wakeGate } from '../../src/surfaces/cron/pre-run.js';
import { readScript, scriptName } from '../../src/surfaces/cron/script-path.js';

const home = mkdtempSync(join(tmpdir(), 'hermes-prerun-'));
const dir = join(home, 'scripts');
mkdirSync(dir);
afterAll(() => rmSync(home, { recursive: true, force: true }));

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const approvals = new Map<string, string>();
const scripts: CronScripts = { home, dir, approved: (name) => approvals.get(name), env: process.env };

/** Writes a script and approves it as written (unless `approve` is false). */
function script(name: string, body: string, approve = true): string {
  writeFileSync(join(dir, name), body);
  if (approve) approvals.set(name, sha(body));
  return name;
}

const job = (name: string | null): CronJobRow =>
  ({ id: 'job1', name: 'gate', script: name, contextFrom: null, prompt: 'p' }) as CronJobRow;

describe('the wake gate', () => {
  it('skips only on a last line that is a JSON object with wakeAgent exactly false', () => {
    expect(wakeGate('{"wakeAgent": false}\n')).toEqual({ skip: true, output: '' });
    expect(wakeGate('checked 3 feeds\n{"wakeAgent":false}\n\n')).toEqual({ skip: true, output: 'checked 3 feeds' });
    expect(wakeGate('new item: x\n{"wakeAgent": true}')).toEqual({ skip: false, output: 'new item: x' });
    for (const other of ['{"wakeAgent": 0}', '{"wakeAgent": "false"}', '[false]', 'false', '', 'plain text']) {
      expect(wakeGate(other).skip).toBe(false);
    }
    // only the last line counts
    expect(wakeGate('{"wakeAgent": false}\nsomething new').skip).toBe(false);
  });
});

describe('the script name', () => {
  it('is a regular file directly in HERMES_HOME/scripts: "..", subfolders, dot files, symlinks and missing files are refused', () => {
    script('ok.sh', 'echo ok\n');
    expect(scriptName(dir, 'ok.sh')).toEqual({ name: 'ok.sh' });
    expect(scriptName(dir, join(dir, 'ok.sh'))).toEqual({ name: 'ok.sh' });
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'sub', 'x.sh'), 'echo x\n');
    writeFileSync(join(home, 'outside.sh'), 'echo out\n');
    symlinkSync(join(home, 'outside.sh'), join(dir, 'link.sh'));
    writeFileSync(join(dir, '.hidden.sh'), 'echo h\n');
    const refused: [string, string][] = [
      ['../outside.sh', '".." is not allowed'],
      ['sub/../ok.sh', '".." is not allowed'],
      ['sub/x.sh', 'directly in'],
      [join(home, 'outside.sh'), 'directly in'],
      ['/etc/passwd', 'directly in'],
      ['link.sh', 'symlink'],
      ['.hidden.sh', 'dot file'],
      ['sub', 'not a regular file'],
      ['missing.sh', 'no such file'],
      ['', 'empty'],
    ];
    for (const [given, why] of refused) {
      const result = scriptName(dir, given);
      expect(result, given).toHaveProperty('error');
      expect((result as { error: string }).error, given).toContain(why);
    }
    expect(readScript(dir, 'link.sh')).toMatchObject({ error: expect.stringContaining('symlink') });
  });
});

describe('a pre-run script at a run', () => {
  const logged = recordingLogger();

  it("approved: runs (cwd HERMES_HOME/scripts, no secrets in its environment); its output is the run's context", async () => {
    const name = script(
      'report.sh',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell default, not a template
      'echo "in $(basename "$PWD"), job $HERMES_CRON_JOB_ID, key=${OPENAI_API_KEY:-none}"\necho \'{"wakeAgent": true}\'\n',
    );
    const env = { ...process.env, OPENAI_API_KEY: 'sk-secret' };
    const outcome = await preRun({ ...scripts, env }, job(name), logged.logger);
    expect(outcome).toEqual({
      kind: 'run',
      context: 'The output of the pre-run script report.sh:\nin scripts, job job1, key=none',
    });
  });

  it('{"wakeAgent": false} on its last line skips the run', async () => {
    const name = script('quiet.sh', 'echo nothing new\necho \'{"wakeAgent": false}\'\n');
    expect(await preRun(scripts, job(name), logged.logger)).toEqual({
      kind: 'skip',
      reason: 'not woken: the pre-run script quiet.sh said {"wakeAgent": false}',
    });
  });

  it('not approved, or changed since its approval: not executed, the run goes on and the log names hermes trust approve', async () => {
    const marker = join(home, 'ran');
    const body = `touch ${marker}\necho '{"wakeAgent": false}'\n`;
    const name = script('new.sh', body, false);
    const fresh = recordingLogger();
    const outcome = await preRun(scripts, job(name), fresh.logger);
    expect(outcome).toMatchObject({ kind: 'run', context: expect.stringContaining('was not run: not approved') });
    expect(existsSync(marker)).toBe(false);
    expect(logText(fresh.lines)).toContain('pre-run script new.sh not run: not approved');
    expect(logText(fresh.lines)).toContain('run `hermes trust approve script:new.sh`');
    // approved, then edited: the approval does not cover the new bytes
    approvals.set(name, sha(body));
    writeFileSync(join(dir, name), `${body}# edited\n`);
    const edited = recordingLogger();
    expect(await preRun(scripts, job(name), edited.logger)).toMatchObject({ kind: 'run' });
    expect(existsSync(marker)).toBe(false);
    expect(logText(edited.lines)).toContain('not run: changed since it was approved');
    // approved as it is now: it runs (and its gate skips)
    approvals.set(name, sha(readFileSync(join(dir, name), 'utf8')));
    expect(await preRun(scripts, job(name), edited.logger)).toMatchObject({ kind: 'skip' });
    expect(existsSync(marker)).toBe(true);
  });

  it('failing (an exit code, a timeout): fail-open, the failure logged and given to the run, even after a wakeAgent false line', async () => {
    const name = script('broken.sh', 'echo partial\necho \'{"wakeAgent": false}\'\necho "db down" >&2\nexit 3\n');
    const fresh = recordingLogger();
    const outcome = await preRun(scripts, job(name), fresh.logger);
    expect(outcome).toMatchObject({ kind: 'run', context: expect.stringContaining('failed (exited with code 3)') });
    expect(logText(fresh.lines)).toContain(
      'pre-run script broken.sh failed (exited with code 3); the agent runs anyway: db down',
    );
    const slow = script('slow.sh', 'sleep 5\n');
    const timed = await preRun({ ...scripts, timeoutMs: 200 }, job(slow), fresh.logger);
    expect(timed).toMatchObject({ kind: 'run', context: expect.stringContaining('timed out') });
  });

  it('long output is cut at 8000 characters, saying so', async () => {
    const name = script('long.py', 'print("x" * 20000)\n');
    const outcome = await preRun(scripts, job(name), logged.logger);
    if (outcome.kind !== 'run' || outcome.context === null) throw new Error(`unexpected ${JSON.stringify(outcome)}`);
    expect(outcome.context).toContain('[… 12000 more characters cut]');
    expect(outcome.context.length).toBeLessThan(8_200);
  });
});
