/**
 * The CLI bundle (apps/hermes/bundle.mjs) holds Latin-1 characters only: V8 keeps a loaded file's
 * source in memory and stores it two bytes per character as soon as one character is above U+00FF
 * (an em dash in a comment doubled the main chunk's 1.7 MB). The build escapes them; this test
 * fails if a build let one through.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BUNDLE = fileURLToPath(new URL('../dist/bundle/', import.meta.url));

describe('the CLI bundle', () => {
  it('has no character above U+00FF in any of its files', () => {
    const files = readdirSync(BUNDLE).filter((name) => name.endsWith('.js'));
    // the main entry and the hooks' worker at least (else the test proves nothing)
    expect(files).toEqual(expect.arrayContaining(['main.js', 'hook-worker.js']));
    const wide = files.flatMap((name) => {
      const at = readFileSync(`${BUNDLE}${name}`, 'utf8').search(/[\u0100-\uffff]/);
      return at >= 0 ? [`${name} at ${at}`] : [];
    });
    expect(wide).toEqual([]);
  });
});
