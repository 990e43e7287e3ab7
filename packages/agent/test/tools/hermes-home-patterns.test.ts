// On the local backend, a command that names HERMES_HOME, runs inside it or climbs out of its
// workspace, or runs the hermes CLI, needs approval; ordinary commands do not.
import { describe, expect, it } from 'vitest';
import { hermesHomeCwdMatch, hermesHomePattern } from '../../src/tools/hermes-home-patterns.js';
import { matchDangerous } from '../../src/tools/match-dangerous.js';

const HOME = '/home/ann';
const HERMES = '/home/ann/.hermes';
const pattern = hermesHomePattern([HERMES], HOME);

describe('hermes_home', () => {
  it.each([
    `echo 'hooks_auto_accept: true' >> ${HERMES}/config.yaml`,
    'cat ~/.hermes/.env',
    'mkdir -p $HOME/.hermes/hooks/evil',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template literal
    'cp x "${HOME}/.hermes/plugins/"',
    'cd "$HERMES_HOME" && echo x > BOOT.md',
    `ls ${HERMES}`,
  ])('%s', (command) => {
    expect(pattern.regex.test(command)).toBe(true);
  });

  it.each(['ls ~/.hermes-old', 'cat ~/notes/.hermes.txt', 'echo $HOME', `ls ${HERMES}2`])('not: %s', (command) => {
    expect(pattern.regex.test(command)).toBe(false);
  });
});

describe('hermes_home_cwd', () => {
  it('every command run in HERMES_HOME outside cache/ and workspaces/', () => {
    expect(hermesHomeCwdMatch('ls', HERMES, [HERMES])?.key).toBe('hermes_home_cwd');
    expect(hermesHomeCwdMatch('ls', `${HERMES}/skills`, [HERMES])?.key).toBe('hermes_home_cwd');
  });
  it('in a workspace: only a command with ..', () => {
    const ws = `${HERMES}/workspaces/s1`;
    expect(hermesHomeCwdMatch('npm test', ws, [HERMES])).toBeNull();
    expect(hermesHomeCwdMatch('echo x > ../../config.yaml', ws, [HERMES])?.key).toBe('hermes_home_cwd');
    expect(hermesHomeCwdMatch('cd .. && ls', ws, [HERMES])?.key).toBe('hermes_home_cwd');
  });
  it('elsewhere: nothing', () => {
    expect(hermesHomeCwdMatch('cd .. && ls', '/srv/app', [HERMES])).toBeNull();
  });
});

describe('hermes_cli', () => {
  it.each([
    'hermes plugins enable evil',
    '/usr/local/bin/hermes trust approve --all --yes',
    'cd /tmp && hermes config set hooks_auto_accept true',
    'npx hermes mcp add x',
    'node /opt/hermes/apps/hermes/dist/main.js plugins enable x',
    'env -u HERMES_AGENT_TERMINAL hermes trust approve --all --yes',
  ])('%s', (command) => {
    expect(matchDangerous(command).map((m) => m.key)).toContain('hermes_cli');
  });
  it.each(['echo hermes', 'grep -r hermes src', 'cat hermes.md', 'git log --grep hermes'])('not: %s', (command) => {
    expect(matchDangerous(command).map((m) => m.key)).not.toContain('hermes_cli');
  });
});
