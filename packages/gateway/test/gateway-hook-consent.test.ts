import { mkdirSync, mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashHookFolder, ShellHookAllowlist } from '@hermes/plugins';
import { describe, expect, it } from 'vitest';
import { filterApprovedHooks } from '../src/gateway-hooks/consent.js';
import { discoverGatewayHooks } from '../src/gateway-hooks/discover.js';

function home(): { hooks: string; store: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-ghook-consent-'));
  return { hooks: join(dir, 'hooks'), store: join(dir, 'shell-hooks-allowlist.json') };
}

function writeHook(hooksDir: string, name: string): string {
  const dir = join(hooksDir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'HOOK.yaml'), `name: ${name}\ndescription: x\nevents: [agent:end]\n`);
  writeFileSync(join(dir, 'handler.ts'), `export { handle } from './lib/impl.ts';\n`);
  mkdirSync(join(dir, 'lib'));
  writeFileSync(join(dir, 'lib', 'impl.ts'), 'export function handle() {}\n');
  return dir;
}

describe('hashHookFolder', () => {
  it('covers every file at any depth, its path and content; is stable; survives a symlink loop', () => {
    const { hooks } = home();
    const dir = writeHook(hooks, 'a');
    const first = hashHookFolder(dir);
    expect(first.files).toEqual(['HOOK.yaml', 'handler.ts', 'lib/impl.ts']);
    expect(hashHookFolder(dir).sha256).toBe(first.sha256);
    writeFileSync(join(dir, 'lib', 'impl.ts'), 'export function handle() { /* changed */ }\n');
    const edited = hashHookFolder(dir).sha256;
    expect(edited).not.toBe(first.sha256);
    renameSync(join(dir, 'lib', 'impl.ts'), join(dir, 'lib', 'other.ts'));
    expect(hashHookFolder(dir).sha256).not.toBe(edited);
    symlinkSync(dir, join(dir, 'lib', 'loop'));
    expect(hashHookFolder(dir).files).toEqual(['HOOK.yaml', 'handler.ts', 'lib/other.ts']);
  });
});

describe('filterApprovedHooks', () => {
  it('keeps approved hooks, leaves out new and changed ones, and records consent under an escape hatch', () => {
    const { hooks, store } = home();
    writeHook(hooks, 'a');
    const b = writeHook(hooks, 'b');
    const specs = discoverGatewayHooks(hooks).hooks;
    const none = filterApprovedHooks(specs, { allowlistPath: store, autoAccept: null });
    expect(none.approved).toEqual([]);
    expect(none.pending.map((p) => [p.spec.name, p.state])).toEqual([
      ['a', 'new'],
      ['b', 'new'],
    ]);

    const now = () => new Date('2026-11-25T12:00:00.000Z');
    const accepted = filterApprovedHooks(specs, { allowlistPath: store, autoAccept: 'hooks_auto_accept', now });
    expect(accepted.approved.map((s) => s.name)).toEqual(['a', 'b']);
    const file = JSON.parse(readFileSync(store, 'utf8'));
    expect(file.approvals[0]).toEqual({
      kind: 'gateway',
      name: 'a',
      dir: join(hooks, 'a'),
      sha256: hashHookFolder(join(hooks, 'a')).sha256,
      approved_at: '2026-11-25T12:00:00.000Z',
      via: 'hooks_auto_accept',
    });

    writeFileSync(join(b, 'added.ts'), 'export {};\n');
    const after = filterApprovedHooks(specs, { allowlistPath: store, autoAccept: null });
    expect(after.approved.map((s) => s.name)).toEqual(['a']);
    expect(after.pending.map((p) => [p.spec.name, p.state])).toEqual([['b', 'changed']]);
  });

  it('shares the store with shell hooks: both kinds survive a save; an entry without kind is a shell hook', () => {
    const { store } = home();
    writeFileSync(
      store,
      JSON.stringify({
        version: 1,
        approvals: [
          { event: 'pre_tool_call', command: 'x.sh', script: null, sha256: null, approved_at: '', via: 'prompt' },
          { kind: 'gateway', name: 'g', dir: '/d', sha256: 'abc', approved_at: '', via: 'hermes hooks approve' },
          { kind: 'gateway', name: 'no-hash' },
        ],
      }),
    );
    const { allowlist, problem } = ShellHookAllowlist.load(store);
    expect(problem).toBeNull();
    expect(allowlist.entries().map((e) => [e.kind, e.command])).toEqual([['shell', 'x.sh']]);
    expect(allowlist.gatewayEntries().map((e) => e.name)).toEqual(['g']);
    allowlist.removeCommand('x.sh');
    allowlist.save();
    const reread = ShellHookAllowlist.load(store).allowlist;
    expect(reread.entries()).toEqual([]);
    expect(reread.findGateway('g')?.sha256).toBe('abc');
    expect(reread.removeGateway('g')).toBe(true);
  });
});
