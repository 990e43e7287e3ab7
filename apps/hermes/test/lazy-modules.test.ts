/**
 * The gateway's start-up imports no module it only needs for a model request, a web fetch or a
 * plugin's structured answer (openai, undici, ajv cost ~0.4 s of start-up together): they are
 * loaded on first use (and warmed once the gateway is up). A static import anywhere on the
 * start-up path brings them back; this test sees it.
 */
import { describe, expect, it } from 'vitest';
import { runCodeResolving } from '../../../test/helpers/resolved-modules.js';

/** The packages (under node_modules) a fresh node process resolves while running `code` (ESM). */
function packagesResolvedBy(code: string): Set<string> {
  const run = runCodeResolving(code);
  expect(run.status, run.stderr).toBe(0);
  return run.packages;
}

const GATEWAY_APP = new URL('../dist/commands/gateway-run.js', import.meta.url).href;
const AGENT = new URL('../../../packages/agent/dist/index.js', import.meta.url).href;
const MODEL_SDK = new URL('../../../packages/agent/dist/model-sdk.js', import.meta.url).href;

describe('modules kept out of start-up', () => {
  it('importing `gateway run` loads fastify but not openai, undici, ajv, the MCP SDK or pg', () => {
    const loaded = packagesResolvedBy(`await import(${JSON.stringify(GATEWAY_APP)});`);
    // the hook sees the gateway's own dependencies (else the test proves nothing)
    expect(loaded.has('fastify')).toBe(true);
    expect(loaded.has('better-sqlite3')).toBe(true);
    expect(
      [...loaded].filter((name) => ['openai', 'undici', 'ajv', '@modelcontextprotocol/sdk', 'pg'].includes(name)),
    ).toEqual([]);
  }, 30_000);

  it('the model SDK and the pool load on the first request (or warm-up)', () => {
    const loaded = packagesResolvedBy(
      `await import(${JSON.stringify(AGENT)}); const { loadModelSdk } = await import(${JSON.stringify(MODEL_SDK)});` +
        ` const sdk = await loadModelSdk(); if (typeof sdk.OpenAI !== 'function') process.exit(3); await sdk.agent.close();`,
    );
    expect(loaded.has('openai')).toBe(true);
    expect(loaded.has('undici')).toBe(true);
  }, 30_000);
});
