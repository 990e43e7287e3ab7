import { describe, expect, it } from 'vitest';
import { capOutput } from '../../src/tools/cap-output.js';
import { killProcessGroup, type SignalSender } from '../../src/tools/kill-process-group.js';
import { createOutputCollector } from '../../src/tools/output-collector.js';
import { resolveToolPath } from '../../src/tools/resolve-tool-path.js';
import { stripAnsi } from '../../src/tools/strip-ansi.js';

describe('capOutput', () => {
  it('keeps text that fits', () => {
    expect(capOutput('abc', 3)).toBe('abc');
  });

  it('keeps 40% head and 60% tail around a marker counting the omitted characters', () => {
    expect(capOutput('0123456789abcdefghij', 10)).toBe('0123\n\n[... 10 characters omitted ...]\n\nefghij');
  });
});

describe('stripAnsi', () => {
  it('removes colours, cursor moves, OSC titles and hyperlinks, and stray ESC bytes', () => {
    const esc = '\u001b';
    expect(stripAnsi(`${esc}[1;31mred${esc}[0m ${esc}[2K${esc}[1Gline`)).toBe('red line');
    expect(stripAnsi(`${esc}]0;title\u0007${esc}]8;;https://x.test${esc}\\link${esc}]8;;${esc}\\`)).toBe('link');
    expect(stripAnsi(`cut${esc}`)).toBe('cut');
    expect(stripAnsi('plain\ttext\n')).toBe('plain\ttext\n');
  });

  it('removes C1 CSI, and the start of a sequence cut in half by the output cap', () => {
    const esc = '\u001b';
    expect(stripAnsi('\u009b31mc1')).toBe('c1');
    expect(stripAnsi(`${esc}(Bcharset`)).toBe('charset');
    expect(stripAnsi(`a${esc}[`)).toBe('a');
    expect(stripAnsi(`a${esc}[1;3`)).toBe('a');
    expect(stripAnsi(`mid${esc}x`)).toBe('midx');
    expect(stripAnsi('ünïcode ✓ and emoji 🎉')).toBe('ünïcode ✓ and emoji 🎉');
  });
});

describe('createOutputCollector', () => {
  it('joins chunks in arrival order', () => {
    const collector = createOutputCollector(100);
    for (const part of ['one ', 'two ', 'three']) collector.push(Buffer.from(part));
    expect(collector.text()).toBe('one two three');
  });

  it('keeps the head and tail within the byte limit and says how much it dropped', () => {
    const collector = createOutputCollector(10);
    for (const part of ['aaaa', 'bbbb', 'cccc', 'dddd', 'eeee']) collector.push(Buffer.from(part));
    expect(collector.text()).toBe('aaaab\n\n[... 10 bytes of output dropped ...]\n\ndeeee');
  });
});

describe('killProcessGroup', () => {
  const fakeKill = (aliveChecks: number) => {
    const sent: Array<[number, NodeJS.Signals | 0]> = [];
    let checks = 0;
    const kill: SignalSender = (pid, signal) => {
      sent.push([pid, signal]);
      if (signal === 0 && ++checks > aliveChecks) throw Object.assign(new Error('no such process'), { code: 'ESRCH' });
      return true;
    };
    return { kill, sent };
  };
  const noSleep = async () => {};

  it('stops after SIGTERM when the group dies within the grace period', async () => {
    const { kill, sent } = fakeKill(2);
    expect(await killProcessGroup(42, { kill, sleep: noSleep, graceMs: 1_000, pollMs: 100 })).toBe('terminated');
    expect(sent).toEqual([
      [-42, 'SIGTERM'],
      [-42, 0],
      [-42, 0],
      [-42, 0],
    ]);
  });

  it('sends SIGKILL to the group once the grace period is over', async () => {
    const { kill, sent } = fakeKill(Number.POSITIVE_INFINITY);
    expect(await killProcessGroup(42, { kill, sleep: noSleep, graceMs: 300, pollMs: 100 })).toBe('killed');
    expect(sent.at(0)).toEqual([-42, 'SIGTERM']);
    expect(sent.filter(([, s]) => s === 0)).toHaveLength(3);
    expect(sent.at(-1)).toEqual([-42, 'SIGKILL']);
  });

  it('reports a group that is already gone, and rethrows other errors', async () => {
    const gone: SignalSender = () => {
      throw Object.assign(new Error('gone'), { code: 'ESRCH' });
    };
    expect(await killProcessGroup(42, { kill: gone, sleep: noSleep })).toBe('gone');
    const denied: SignalSender = () => {
      throw Object.assign(new Error('not permitted'), { code: 'EPERM' });
    };
    await expect(killProcessGroup(42, { kill: denied, sleep: noSleep })).rejects.toThrow('not permitted');
  });
});

describe('resolveToolPath', () => {
  it('expands ~ and resolves relative paths against cwd', () => {
    expect(resolveToolPath('~', '/work', '/home/me')).toBe('/home/me');
    expect(resolveToolPath('~/notes.md', '/work', '/home/me')).toBe('/home/me/notes.md');
    expect(resolveToolPath('src/a.ts', '/work', '/home/me')).toBe('/work/src/a.ts');
    expect(resolveToolPath('/etc/hosts', '/work', '/home/me')).toBe('/etc/hosts');
  });
});
