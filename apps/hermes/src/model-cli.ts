/** `hermes model list` and `hermes fallback [list|add|remove|test]` on the program (their code loads only when one runs). */
import type { Command } from 'commander';
import type { GlobalOptions } from './main.js';

export function addModelCommands(program: Command, globals: (cmd: Command) => GlobalOptions): void {
  const modelCmd = program
    .command('model')
    .description('model providers: the profiles /model and model.provider choose from');
  modelCmd
    .command('list')
    .description(
      'every model provider: base URL, whether its key is set (never the key), default model, context length',
    )
    .option('--json', 'print JSON')
    .action(async (_opts, cmd: Command) => {
      const { modelList } = await import('./commands/model-list.js');
      await modelList(globals(cmd));
    });

  const fallback = program
    .command('fallback')
    .description('model.fallback: the models tried in order when the primary fails (a menu on a terminal)')
    .action(async (_opts, cmd: Command) => {
      const { fallbackMenu } = await import('./commands/fallback-menu.js');
      await fallbackMenu(globals(cmd));
    });
  fallback
    .command('list')
    .description("the chain, each with its provider's base URL and whether its key is set (never the key)")
    .option('--json', 'print JSON')
    .action(async (_opts, cmd: Command) => {
      const { fallbackList } = await import('./commands/fallback.js');
      await fallbackList(globals(cmd));
    });
  fallback
    .command('add')
    .description('add a model to the end of the chain (--first: the front); comments in config.yaml kept')
    .argument('<provider:model>', 'e.g. openrouter:openai/gpt-4o-mini (a bare model: the primary provider)')
    .option('--first', 'try it before the others')
    .action(async (model: string, opts: { first?: boolean }, cmd: Command) => {
      const { fallbackAdd } = await import('./commands/fallback.js');
      await fallbackAdd(globals(cmd), model, opts.first === true);
    });
  fallback
    .command('remove')
    .description('take a model out of the chain')
    .argument('<provider:model>', 'as hermes fallback list shows it')
    .action(async (model: string, _opts, cmd: Command) => {
      const { fallbackRemove } = await import('./commands/fallback.js');
      await fallbackRemove(globals(cmd), model);
    });
  fallback
    .command('test')
    .description(
      'one tiny request to each fallback (or the one named): ok with its latency, or the error; exit 1 if any failed',
    )
    .argument('[provider:model]', 'only this one')
    .option('--json', 'print JSON')
    .action(async (model: string | undefined, _opts, cmd: Command) => {
      const { fallbackTest } = await import('./commands/fallback.js');
      await fallbackTest(globals(cmd), model);
    });
}
