import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERROR_CODES, HermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { discoverGatewayHooks } from '../src/gateway-hooks/discover.js';
import { HookManifestError, parseHookManifest } from '../src/gateway-hooks/manifest.js';

/** Every HOOK.yaml refusal is a HermesError with the stable HERMES_HOOK_MANIFEST code, naming file, key or line. */
function refusal(text: string): HookManifestError {
  try {
    parseHookManifest(text, '/h/x/HOOK.yaml');
  } catch (err) {
    if (err instanceof HookManifestError) return err;
    throw err;
  }
  throw new Error('accepted');
}

describe('HOOK.yaml errors carry a code', () => {
  it.each([
    ['description: d\nevents: [agent:end]\n', /^\/h\/x\/HOOK\.yaml: name: /],
    ['name: x\ndescription: d\nevents: [agent:end, 7]\n', /^\/h\/x\/HOOK\.yaml:3: events\[1\]: expected a string/],
    ['- just\n- a list\n', /^\/h\/x\/HOOK\.yaml: expected a mapping/],
    ['name: x\ndescription: d\nevents: [agent:end\n', /^\/h\/x\/HOOK\.yaml: not valid YAML .*line \d+/],
    [
      `${'['.repeat(200)}${']'.repeat(200)}\n`,
      /^\/h\/x\/HOOK\.yaml: not valid YAML \(collections nested .* at line 1\)/,
    ],
  ])('%j: HERMES_HOOK_MANIFEST, message naming where', (text, where) => {
    const err = refusal(text);
    expect(err).toBeInstanceOf(HermesError);
    expect(err.code).toBe(ERROR_CODES.HOOK_MANIFEST);
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(where);
    expect(err.file).toMatch(/^\/h\/x\/HOOK\.yaml(:\d+)?$/);
  });
});

describe('hook folders skipped at discovery', () => {
  it('carry HERMES_HOOK_MANIFEST when HOOK.yaml is missing, invalid or takes a used name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hermes-hook-codes-'));
    const folder = (name: string, files: Record<string, string>) => {
      mkdirSync(join(dir, name));
      for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, name, file), text);
    };
    const handler = { 'handler.mjs': 'export function handle() {}' };
    folder('a-ok', { 'HOOK.yaml': 'name: ok\ndescription: d\nevents: [agent:end]\n', ...handler });
    folder('b-bad', { 'HOOK.yaml': 'name: bad\ndescription: d\nevents: [agent:ends]\n', ...handler });
    folder('c-none', handler);
    folder('d-dup', { 'HOOK.yaml': 'name: ok\ndescription: d\nevents: [agent:end]\n', ...handler });
    folder('e-nohandler', { 'HOOK.yaml': 'name: e\ndescription: d\nevents: [agent:end]\n' });
    const { hooks, skipped } = discoverGatewayHooks(dir);
    expect(hooks.map((h) => h.name)).toEqual(['ok']);
    expect(skipped.map((s) => [s.dir.slice(dir.length + 1), s.code])).toEqual([
      ['b-bad', ERROR_CODES.HOOK_MANIFEST],
      ['c-none', ERROR_CODES.HOOK_MANIFEST],
      ['d-dup', ERROR_CODES.HOOK_MANIFEST],
      ['e-nohandler', undefined],
    ]);
    expect(skipped[0]?.reason).toMatch(/b-bad\/HOOK\.yaml:3: events\[0\]: unknown gateway event "agent:ends"/);
  });
});
