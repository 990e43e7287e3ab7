// profile-summary.ts and profile-categories.ts on a tiny fake bundle: frames in apps/hermes/dist/bundle/*.js
// are charged to the module esbuild's `// path` comment above them names (bundle-sources.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleSources } from './bundle-sources.js';
import { categorize } from './profile-categories.js';
import { type CpuProfile, summarize } from './profile-summary.js';

const root = mkdtempSync(join(tmpdir(), 'hermes-bundle-sources-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const dir = join(root, 'apps', 'hermes', 'dist', 'bundle');
mkdirSync(dir, { recursive: true });
const chunk = join(dir, 'chunk-TEST.js');
writeFileSync(
  chunk,
  [
    'import { createRequire } from "module"; // line 0: esbuild runtime',
    'var __esm = () => {};',
    '',
    '// packages/gateway/dist/intake/chat-intake.js',
    'async function runChatStages() {', // line 4
    '}',
    '',
    '// node_modules/fastify/lib/route.js',
    'function routeHandler() {', // line 8
    '}',
  ].join('\n'),
);
const url = pathToFileURL(chunk).href;
const frame = (id: number, functionName: string, lineNumber: number, children: number[] = []) => ({
  id,
  callFrame: { functionName, url, lineNumber },
  children,
});
// root -> routeHandler (fastify) -> runChatStages (gateway); a sample in each, one in esbuild's runtime
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 4] },
    frame(2, 'routeHandler', 8, [3]),
    frame(3, 'runChatStages', 4),
    frame(4, '__esm', 1),
  ],
  samples: [2, 3, 3, 4],
  timeDeltas: [100, 200, 300, 400],
};

describe('bundle frames by source module', () => {
  it('maps a line to the module above it, a line above every module to the chunk', () => {
    const sourceOf = bundleSources();
    expect(sourceOf(url, 4)).toEqual({
      url: pathToFileURL(join(root, 'packages/gateway/dist/intake/chat-intake.js')).href,
      line: 0,
      bundle: 'chunk-TEST.js:5',
    });
    expect(sourceOf(url, 9).url).toMatch(/\/node_modules\/fastify\/lib\/route\.js$/);
    expect(sourceOf(url, 1)).toEqual({ url, line: 1, bundle: 'chunk-TEST.js:2' });
    expect(sourceOf('node:events', 470)).toEqual({ url: 'node:events', line: 470 });
  });

  it('summarizes self time by source module and function', () => {
    const lines = summarize(profile, 10);
    expect(lines).toContain(' 50.0% packages/gateway/dist/intake/chat-intake.js');
    expect(lines).toContain(' 10.0% nm:fastify');
    expect(lines).toContain(' 50.0% runChatStages packages/gateway/dist/intake/chat-intake.js:1 (chunk-TEST.js:5)');
  });

  it('puts each sample in the category of its nearest claimed module', () => {
    const totals = categorize(profile);
    expect(totals.get('gateway pipeline (sessions, lanes, delivery, turn)')).toBe(500);
    expect(totals.get('HTTP intake (Fastify, request guard)')).toBe(100);
    expect(totals.get('other: node internals (sockets, timers, promises)')).toBe(400);
  });
});
