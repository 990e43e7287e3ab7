import { ERROR_CODES, HermesError } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { HookManifestError, parseHookManifest } from '../src/index.js';

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
    ['name: x\ndescription: d\nevents: [agent:end, 7]\n', /^\/h\/x\/HOOK\.yaml: events\[1\]: expected a string/],
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
    expect(err.file).toBe('/h/x/HOOK.yaml');
  });
});
