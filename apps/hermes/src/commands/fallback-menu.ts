/**
 * Bare `hermes fallback`: on a terminal a small menu over model.fallback (list, add, remove, test)
 * until q or Enter; when stdin is not a terminal it prints the list, as `hermes fallback list`.
 */
import { CliExit } from '../cli-error.js';
import type { GlobalOptions } from '../main.js';
import { addToChain, fallbackList, removeFromChain } from './fallback.js';
import { chainLines, type FallbackContext, fallbackContext, fallbackEntries } from './fallback-chain.js';
import { testFallbacks } from './fallback-test.js';
import { createPrompter, type Prompter } from './plugins-prompt.js';

const out = (line: string) => process.stdout.write(`${line}\n`);

/** Runs one menu choice; a refused edit is said, not thrown (the menu goes on). */
async function choose(ctx: FallbackContext, prompter: Prompter, choice: string): Promise<void> {
  try {
    if (choice === 'l') {
      for (const line of chainLines(ctx, fallbackEntries(ctx))) out(line);
    } else if (choice === 'a') {
      const text = (await prompter.ask('provider:model to add: '))?.trim() ?? '';
      if (text === '') return;
      const first = ((await prompter.ask('First in the chain? [y/N] '))?.trim().toLowerCase() ?? '') === 'y';
      out(addToChain(ctx, text, first));
    } else if (choice === 'r') {
      if (ctx.chain.length === 0) {
        out('No fallback to remove.');
        return;
      }
      for (const [i, m] of ctx.chain.entries()) out(`  ${i + 1}. ${m}`);
      const text = (await prompter.ask('Remove which (number or provider:model)? '))?.trim() ?? '';
      if (text === '') return;
      const byNumber = /^\d+$/.test(text) ? ctx.chain[Number(text) - 1] : undefined;
      out(removeFromChain(ctx, byNumber ?? text));
    } else if (choice === 't') {
      await testFallbacks(ctx, undefined, out);
    } else {
      out(`no choice "${choice}": l, a, r, t or q`);
    }
  } catch (err) {
    if (!(err instanceof Error) || (err instanceof CliExit && err.exitCode === 130)) throw err;
    out(`✗ ${err.message}`);
  }
}

export async function fallbackMenu(options: GlobalOptions): Promise<void> {
  const prompter = createPrompter();
  if (!prompter.interactive) {
    prompter.close();
    await fallbackList(options);
    return;
  }
  const ctx = await fallbackContext(options);
  try {
    for (const line of chainLines(ctx, fallbackEntries(ctx))) out(line);
    for (;;) {
      const answer = await prompter.ask('[l]ist  [a]dd  [r]emove  [t]est  [q]uit: ');
      const choice = answer?.trim().toLowerCase().slice(0, 1) ?? 'q';
      if (choice === '' || choice === 'q') break;
      await choose(ctx, prompter, choice);
    }
  } finally {
    prompter.close();
  }
}
