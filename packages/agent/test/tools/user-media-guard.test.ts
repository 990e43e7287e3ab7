// Users apart (issue #28): the file tools of one user's turn never read or write another user's
// received files (HERMES_HOME/cache/media/<owner>/); their own folder and the rest of the cache stay open.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { safeIdentityName } from '@hermes/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReadFileTool, createWriteFileTool } from '../../src/tools/index.js';
import { callTool, createFakeContext, makeTempDir } from './fake-tool-context.js';

let home: string;
let work: string;
const media = () => path.join(home, 'cache', 'media');
const alice = { key: 'telegram:111', tier: 'user' as const };
const bob = { key: 'telegram:222', tier: 'user' as const };

beforeEach(async () => {
  home = await makeTempDir();
  work = await makeTempDir();
  for (const user of [alice, bob]) {
    await mkdir(path.join(media(), safeIdentityName(user.key)), { recursive: true });
    await writeFile(path.join(media(), safeIdentityName(user.key), 'note.txt'), `secret of ${user.key}\n`);
  }
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

const options = () => ({ cwd: work, hermesHomes: [home], fileRoots: [work, path.join(home, 'cache')] });

describe("the file tools keep to the asking user's received files", () => {
  it("read_file: the user's own file is read, another user's is refused", async () => {
    const { context } = createFakeContext();
    const read = createReadFileTool(options());
    const own = await callTool(
      read,
      { path: path.join(media(), safeIdentityName(bob.key), 'note.txt') },
      { ...context, user: bob },
    );
    expect(JSON.stringify(own)).toContain('secret of telegram:222');
    const other = await callTool(
      read,
      { path: path.join(media(), safeIdentityName(alice.key), 'note.txt') },
      { ...context, user: bob },
    );
    expect(JSON.stringify(other)).toMatch(/another user's file/);
    expect(JSON.stringify(other)).not.toContain('secret of telegram:111');
  });

  it("write_file: another user's folder is refused", async () => {
    const { context } = createFakeContext();
    const write = createWriteFileTool(options());
    const target = path.join(media(), safeIdentityName(alice.key), 'planted.txt');
    const result = await callTool(write, { path: target, content: 'x' }, { ...context, user: bob });
    expect(JSON.stringify(result)).toMatch(/another user's file/);
  });
});
