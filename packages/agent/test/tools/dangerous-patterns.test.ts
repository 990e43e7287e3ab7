import { describe, expect, it } from 'vitest';
import { DANGEROUS_PATTERNS, matchDangerous } from '../../src/tools/index.js';

const keysOf = (command: string, extra?: string[]) => matchDangerous(command, extra).map((m) => m.key);

describe('DANGEROUS_PATTERNS', () => {
  it('has unique keys and at least one example per pattern', () => {
    const keys = DANGEROUS_PATTERNS.map((p) => p.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const pattern of DANGEROUS_PATTERNS) expect(pattern.examples.length, pattern.key).toBeGreaterThan(0);
  });

  it('covers the required kinds of command', () => {
    expect(DANGEROUS_PATTERNS.map((p) => p.key)).toEqual(
      expect.arrayContaining([
        'rm_rf',
        'sudo',
        'mkfs',
        'dd_device',
        'chmod_root',
        'chown_root',
        'fork_bomb',
        'curl_pipe_sh',
        'shutdown',
        'write_block_device',
        'git_force_push',
        'git_reset_hard',
        'kill_all',
        'systemctl_stop',
        'write_etc',
        'pipe_to_shell',
        'shell_generated_code',
        'eval_exec',
        'backticks',
        'dynamic_command',
        'rm_rf_variable',
      ]),
    );
  });

  for (const pattern of DANGEROUS_PATTERNS) {
    it.each(pattern.examples)(`${pattern.key} catches %s`, (example) => {
      expect(keysOf(example)).toContain(pattern.key);
    });
  }
});

describe('matchDangerous', () => {
  it.each([
    'ls -la',
    'rm -rf node_modules',
    'rm -rf /tmp/build',
    'rm -rf /usr/local/lib/foo',
    'rm file*.log',
    'grep -r sudoers docs',
    'cat /etc/hosts',
    'cp /etc/hosts /tmp/hosts',
    'dd if=/dev/zero of=/dev/null count=1',
    'dd if=in.img of=out.img',
    'chmod -R 755 ./dist',
    'chown -R me ./build',
    'curl -fsSL https://example.com -o install.sh',
    'git push origin main',
    'git push -u origin feature/fix-force',
    'git reset --soft HEAD~1',
    'git clean -n',
    'kill -9 12345',
    'kill -1 4242',
    'systemctl status nginx',
    'echo done > out.txt',
    'npm test && npm run build',
    'pseudo-command --flag',
  ])('lets %s through', (command) => {
    expect(keysOf(command)).toEqual([]);
  });

  it('returns every match in list order with its description', () => {
    expect(matchDangerous('sudo rm -rf / && git push --force')).toEqual([
      { key: 'rm_rf', description: 'recursive delete of /, ~, a system directory or a wildcard' },
      { key: 'sudo', description: 'run with superuser privileges (sudo, doas, su)' },
      { key: 'git_force_push', description: 'force-push (rewrites remote history)' },
    ]);
  });

  it('sees through line continuations, backslashes and empty quotes', () => {
    expect(keysOf('s\\udo ls')).toEqual(['sudo']);
    expect(keysOf("su''do ls")).toEqual(['sudo']);
    expect(keysOf('rm -rf \\\n /')).toEqual(['rm_rf']);
  });

  it('reads a line break as a command separator: a dangerous second line of a script is caught', () => {
    expect(keysOf('echo hi\nsudo make install')).toEqual(['sudo']);
    expect(keysOf('cd /tmp\r\nrm -rf ./build/*')).toEqual(['rm_rf']);
    expect(keysOf('echo "two\nlines"')).toEqual([]);
  });

  it('adds extra patterns, case-insensitive, keyed custom:<source>', () => {
    expect(matchDangerous('DROP TABLE users', ['drop\\s+table'])).toEqual([
      { key: 'custom:drop\\s+table', description: 'matches custom pattern /drop\\s+table/' },
    ]);
    expect(keysOf('select 1', ['drop\\s+table'])).toEqual([]);
  });

  it('throws a TypeError naming an invalid extra pattern', () => {
    expect(() => matchDangerous('ls', ['[unclosed'])).toThrow(TypeError);
    expect(() => matchDangerous('ls', ['[unclosed'])).toThrow(/"\[unclosed"/);
  });
});
