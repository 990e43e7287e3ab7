// The file tools stay inside tools.file_roots and never touch the gateway's secrets, state and
// code or the user's keys and shell start-up files, whatever the roots say. Attack findings:
// read_file returned ~/.ssh/id_ed25519 and HERMES_HOME/.env; write_file wrote ~/.bashrc and a
// gateway hook. Every test uses a fake home and HERMES_HOME in a temp directory.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createReadFileTool, createWriteFileTool, type FileToolOptions } from '@hermes/agent';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callTool, createFakeContext } from '../../packages/agent/test/tools/fake-tool-context.js';

const { context } = createFakeContext();
let base: string;
let homeDir: string;
let hermesHome: string;
let work: string;
let outside: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'hermes-roots-')));
  homeDir = path.join(base, 'home');
  hermesHome = path.join(homeDir, '.hermes');
  work = path.join(homeDir, 'project');
  outside = path.join(base, 'outside');
  for (const d of [
    path.join(homeDir, '.ssh'),
    path.join(hermesHome, 'hooks'),
    path.join(hermesHome, 'cache'),
    work,
    outside,
  ]) {
    await mkdir(d, { recursive: true });
  }
  await writeFile(path.join(homeDir, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n');
  await writeFile(path.join(hermesHome, '.env'), 'DATABASE_URL=postgres://u:pw@db/x\n');
  await writeFile(path.join(hermesHome, 'config.yaml'), 'model: {}\n');
  await writeFile(path.join(homeDir, '.bashrc'), '# rc\n');
  await writeFile(path.join(outside, 'secret.txt'), 'outside\n');
  await writeFile(path.join(work, 'ok.txt'), 'fine\n');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const opts = (extra: FileToolOptions = {}): FileToolOptions => ({
  cwd: work,
  homeDir,
  hermesHomes: [hermesHome],
  ...extra,
});
const read = (p: string, extra?: FileToolOptions) => callTool(createReadFileTool(opts(extra)), { path: p }, context);
const write = (p: string, extra?: FileToolOptions) =>
  callTool(createWriteFileTool(opts(extra)), { path: p, content: 'pwned\n' }, context);

describe('file roots: the default (working directory and HERMES_HOME/cache)', () => {
  it('reads and writes inside the working directory and HERMES_HOME/cache', async () => {
    expect(await read('ok.txt')).toMatchObject({ content: 'fine' });
    expect(await write('new/dir/file.txt')).toMatchObject({ bytes_written: 6 });
    expect(await write(path.join(hermesHome, 'cache', 'x.txt'))).toMatchObject({ bytes_written: 6 });
  });

  it('refuses a path outside the roots, naming it and the roots', async () => {
    const result = await read(path.join(outside, 'secret.txt'));
    expect(result.error).toContain(path.join(outside, 'secret.txt'));
    expect(result.error).toMatch(/outside the allowed folders.*tools\.file_roots allows/);
    expect((await write(path.join(outside, 'new.txt'))).error).toMatch(/outside the allowed folders/);
    expect(existsSync(path.join(outside, 'new.txt'))).toBe(false);
    expect((await read('/etc/hostname')).error).toMatch(/Access denied: \/etc\/hostname/);
  });

  it('refuses any path with ".."', async () => {
    expect((await read('../.ssh/id_ed25519')).error).toMatch(/"\.\." are not allowed/);
    expect((await read('sub/../ok.txt')).error).toMatch(/"\.\." are not allowed/);
  });

  it('refuses a symlink inside a root that points out of it, for reading and writing', async () => {
    await symlink(path.join(outside, 'secret.txt'), path.join(work, 'link.txt'));
    await symlink(outside, path.join(work, 'linkdir'));
    const r = await read('link.txt');
    expect(r.error).toMatch(/outside the allowed folders \(it resolves to .*outside\/secret\.txt\)/);
    expect((await write('link.txt')).error).toMatch(/outside the allowed folders/);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('outside\n');
    // a file that does not exist yet is judged by its nearest existing parent
    expect((await write('linkdir/sub/new.txt')).error).toMatch(/outside the allowed folders/);
    expect(existsSync(path.join(outside, 'sub'))).toBe(false);
  });

  it('refuses a symlink in a root that points at a protected file', async () => {
    await symlink(path.join(hermesHome, '.env'), path.join(work, 'env-link'));
    expect((await read('env-link')).error).toMatch(/protected path \(HERMES_HOME's \.env/);
  });
});

describe('the never-list wins over tools.file_roots', () => {
  // roots that cover everything: the whole fake home and the filesystem root
  const wide: FileToolOptions = { fileRoots: ['/', '~'] };

  it.each([
    ['~/.ssh/id_ed25519', /keys or credentials/],
    ['~/.bashrc', /shell start-up file/],
    ['~/.profile', /shell start-up file/],
    ['~/.zshrc', /shell start-up file/],
    ['~/.config/fish/config.fish', /shell start-up file/],
    ['~/.aws/credentials', /keys or credentials/],
    ['~/.netrc', /keys or credentials/],
    ['~/.hermes/.env', /\.env holds the gateway's secrets/],
    ['~/.hermes/config.yaml', /config\.yaml configures the gateway/],
    ['~/.hermes/state.db', /state\.db/],
    ['~/.hermes/state.db-wal', /state\.db/],
    ['~/.hermes/state.db-shm', /state\.db/],
    ['~/.hermes/hooks/evil/HOOK.yaml', /hooks\/ holds code/],
    ['~/.hermes/plugins/evil/index.ts', /plugins\/ holds code/],
    ['~/.hermes/profiles/work/.env', /\.env holds the gateway's secrets/],
    ['~/.hermes/shell-hooks-allowlist.json', /consented/],
  ])('%s is neither read nor written', async (p, why) => {
    const shown = path.join(homeDir, p.slice(2));
    const r = await read(p, wide);
    expect(r.error).toContain(`Access denied: ${shown}`);
    expect(r.error).toMatch(why);
    const before = existsSync(shown) ? await readFile(shown, 'utf8') : null;
    const w = await write(p, wide);
    expect(w.error).toMatch(why);
    expect(existsSync(shown) ? await readFile(shown, 'utf8') : null).toBe(before);
  });

  it("refuses the gateway's own /proc entries (its environment holds secrets)", async () => {
    expect((await read('/proc/self/environ', wide)).error).toMatch(
      /Access denied: \/proc\/self\/environ: protected path/,
    );
    expect((await read(`/proc/${process.pid}/environ`, wide)).error).toMatch(/protected path/);
  });

  it('protects HERMES_HOME reached through a symlink too', async () => {
    await symlink(hermesHome, path.join(work, 'hh'));
    expect((await read('hh/.env', wide)).error).toMatch(/protected path/);
    expect((await write('hh/hooks/x/handler.js', wide)).error).toMatch(/protected path/);
    expect(existsSync(path.join(hermesHome, 'hooks', 'x'))).toBe(false);
  });

  it('tools.file_roots replaces the default roots', async () => {
    const custom: FileToolOptions = { fileRoots: [outside] };
    expect(await read(path.join(outside, 'secret.txt'), custom)).toMatchObject({ content: 'outside' });
    expect((await read('ok.txt', custom)).error).toMatch(/outside the allowed folders/);
  });
});
