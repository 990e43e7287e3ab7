/**
 * `hermes fallback list|add|remove|test`: model.fallback, the chain of models tried in order when the
 * primary still fails after its retries. Edits go through the config writer (`hermes config set`'s:
 * comments kept, validated, atomic); a running gateway uses the new chain once restarted.
 */
import { choiceLabel } from '@hermes/agent';
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import {
  chainLines,
  type FallbackContext,
  fallbackContext,
  fallbackEntries,
  indexInChain,
  parseFallback,
  writeChain,
} from './fallback-chain.js';
import { testFallbacks } from './fallback-test.js';

const out = (line: string) => process.stdout.write(`${line}\n`);

/** `hermes fallback list [--json]` */
export async function fallbackList(options: GlobalOptions): Promise<void> {
  const ctx = await fallbackContext(options);
  const entries = fallbackEntries(ctx);
  if (options.json) out(JSON.stringify(entries, null, 2));
  else for (const line of chainLines(ctx, entries)) out(line);
}

/** Adds `text` to the chain (last, or first with `first`); moves it there when it is already in. */
export function addToChain(ctx: FallbackContext, text: string, first: boolean): string {
  const parsed = parseFallback(ctx, text);
  if (!parsed.ok) throw new CliExit(2, `cannot add "${text}": ${parsed.error}`);
  const label = choiceLabel(parsed.choice);
  let primary: string | null = null;
  try {
    primary = choiceLabel(ctx.providers.primary());
  } catch {
    // no primary model configured yet: nothing to compare with
  }
  if (label === primary) throw new CliExit(1, `${label} is the primary model: a fallback must be another model`);
  const at = indexInChain(ctx, label);
  if (at >= 0 && (!first || at === 0)) return `${label} is already in model.fallback (place ${at + 1})`;
  const rest = ctx.chain.filter((_, i) => i !== at);
  const chain = first ? [label, ...rest] : [...rest, label];
  ctx.chain = chain;
  return writeChain(ctx.home, chain);
}

/** Removes `text` from the chain. */
export function removeFromChain(ctx: FallbackContext, text: string): string {
  const at = indexInChain(ctx, text);
  if (at < 0) {
    const now = ctx.chain.length === 0 ? 'model.fallback is unset' : `the chain: ${ctx.chain.join(', ')}`;
    throw new CliExit(1, `"${text}" is not in model.fallback (${now})`);
  }
  const chain = ctx.chain.filter((_, i) => i !== at);
  ctx.chain = chain;
  return writeChain(ctx.home, chain);
}

/** `hermes fallback add PROVIDER:MODEL [--first]` */
export async function fallbackAdd(options: GlobalOptions, text: string, first: boolean): Promise<void> {
  out(addToChain(await fallbackContext(options), text, first));
}

/** `hermes fallback remove PROVIDER:MODEL` */
export async function fallbackRemove(options: GlobalOptions, text: string): Promise<void> {
  out(removeFromChain(await fallbackContext(options), text));
}

/** `hermes fallback test [PROVIDER:MODEL] [--json]`: exit 1 when any failed. */
export async function fallbackTest(options: GlobalOptions, named: string | undefined): Promise<void> {
  const ctx = await fallbackContext(options);
  const results = await testFallbacks(ctx, named, options.json ? () => {} : out);
  if (options.json) out(JSON.stringify(results, null, 2));
  if (results.some((r) => !r.ok)) throw new CliExit(1);
}
