// Which Chromium the browser tool drives (tools.browser.executable, else PATH), and the tool's
// answer when there is none: an error naming what to install, no crash.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { enablesTool, silentLogger, type ToolContext } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_NAMES, createBrowser, findChromium } from '../../src/index.js';

function binDir(names: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-bin-'));
  for (const name of names) {
    writeFileSync(join(dir, name), '#!/bin/sh\n');
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

describe('findChromium', () => {
  it('takes the first name of CHROMIUM_NAMES found on PATH, in that order', () => {
    const a = binDir(['google-chrome']);
    const b = binDir(['chromium-browser']);
    expect(findChromium(undefined, `${a}:${b}`)).toEqual({ ok: true, path: join(b, 'chromium-browser') });
    expect(findChromium(undefined, a)).toEqual({ ok: true, path: join(a, 'google-chrome') });
    expect(CHROMIUM_NAMES[0]).toBe('chromium');
  });

  it('a file that is not executable does not count', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hermes-bin-'));
    writeFileSync(join(dir, 'chromium'), '');
    expect(findChromium(undefined, dir).ok).toBe(false);
  });

  it('none on PATH: the error names the names, what to install and the config key', () => {
    const r = findChromium(undefined, binDir([]));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toContain('chromium, chromium-browser, google-chrome');
    expect(r.error).toContain('apt-get install chromium');
    expect(r.error).toContain('tools.browser.executable');
  });

  it('tools.browser.executable wins over PATH, and a wrong one is named', () => {
    const dir = binDir(['chromium', 'my-chrome']);
    expect(findChromium(join(dir, 'my-chrome'), dir)).toEqual({ ok: true, path: join(dir, 'my-chrome') });
    expect(findChromium('/nowhere/chromium', dir)).toEqual({
      ok: false,
      error: 'tools.browser.executable /nowhere/chromium is not an executable file',
    });
  });
});

describe('the browser tool without a Chromium', () => {
  it('answers with the error instead of failing the turn, and is opt-in (`*` leaves it out)', async () => {
    const { tool, pool } = createBrowser({
      config: { idle_timeout_s: 300, timeout_s: 5 },
      envPath: binDir([]),
      allowPrivateUrls: false,
      maxTextChars: 1000,
      screenshotDir: () => tmpdir(),
      hermesHomes: [],
    });
    const context = { sessionId: 's', signal: new AbortController().signal, logger: silentLogger } as ToolContext;
    const result = (await tool.handler({ action: 'read' }, context)) as Record<string, unknown>;
    expect(result).toMatchObject({ success: false });
    expect(result.error).toContain('apt-get install chromium');
    expect(pool.launched).toBe(false);
    const bad = (await tool.handler({ action: 'hover' }, context)) as Record<string, unknown>;
    expect(bad).toMatchObject({ success: false, code: 'HERMES_TOOL_ARGS' });
    expect(bad.error).toContain('navigate, read, click, fill, screenshot, close');
    expect(enablesTool(['*'], tool)).toBe(false);
    expect(enablesTool(['*', 'browser'], tool)).toBe(true);
    expect(enablesTool(['web', 'browser'], tool)).toBe(true);
    expect(enablesTool(['*'], { name: 'web_extract', toolset: 'web' })).toBe(true);
    await pool.close();
  });
});
