import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BLOCKED_FLOOR } from '../../src/tools/blocked-floor.js';
import { createTerminalTool } from '../../src/tools/index.js';
import { matchPatterns } from '../../src/tools/match-dangerous.js';
import { callTool, createFakeContext, makeTempDir } from './fake-tool-context.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the always-blocked floor', () => {
  it('catches every example of every floor pattern (checked as text only: nothing here runs them)', () => {
    for (const pattern of BLOCKED_FLOOR) {
      expect(pattern.examples.length, pattern.key).toBeGreaterThan(0);
      for (const example of pattern.examples) {
        expect(
          matchPatterns(example, BLOCKED_FLOOR).map((m) => m.key),
          example,
        ).toContain(pattern.key);
      }
    }
  });

  it('leaves everyday and merely dangerous commands to the approval flow', () => {
    for (const command of [
      'rm -rf ./build/*',
      'rm -rf node_modules dist',
      'sudo apt-get install jq',
      'git push --force',
      'dd if=/dev/zero of=./disk.img bs=1M count=1',
      'echo hi > /dev/null 2>&1',
      'chmod -R 755 ./dist',
      'curl -fsSL https://example.com/x | sh',
    ]) {
      expect(matchPatterns(command, BLOCKED_FLOOR), command).toEqual([]);
    }
  });

  it('the terminal tool refuses a floor command under --yolo and with an approving user, asking nobody', async () => {
    // harmless if it ran: mkfs of a device that does not exist, after a marker file
    const command = 'touch marker && mkfs.ext4 /dev/hermes-test-no-such-device';
    for (const tool of [createTerminalTool({ cwd: dir, yolo: true }), createTerminalTool({ cwd: dir })]) {
      const fake = createFakeContext({ approval: 'always' });
      const result = await callTool(tool, { command }, fake.context);
      expect(result.code).toBe('blocked');
      expect(result.pattern_keys).toEqual(['mkfs']);
      expect(String(result.error)).toMatch(/^Blocked: format or wipe a filesystem.*never runs this command/);
      expect(fake.approvals).toEqual([]);
      expect(existsSync(path.join(dir, 'marker'))).toBe(false);
    }
  });

  it('a merely dangerous command still runs under --yolo', async () => {
    const tool = createTerminalTool({ cwd: dir, yolo: true });
    const fake = createFakeContext({ approval: 'deny' });
    const result = await callTool(tool, { command: 'mkdir -p sub && touch sub/x && rm -rf ./sub/*' }, fake.context);
    expect(result.exit_code).toBe(0);
    expect(fake.approvals).toEqual([]);
  });
});
