/**
 * Bare `hermes`: the interactive chat, as `hermes chat`. Before a model is configured (a first run)
 * it prints the help instead, with the one line that says what to set, rather than failing.
 */
import type { GlobalOptions } from '../main.js';
import { loadSettings } from '../settings.js';

export async function bareHermes(options: GlobalOptions, help: () => void): Promise<void> {
  const { config, paths } = loadSettings(options);
  const named = (options.provider ?? config.model.provider) !== 'custom';
  if (!(options.model ?? config.model.default) && !named) {
    help();
    process.stdout.write(
      `\nNo model configured yet: set model.default in ${paths.config} (or HERMES_INFERENCE_MODEL), then run hermes again for the chat.\n`,
    );
    return;
  }
  const { runChat } = await import('./chat.js');
  await runChat(options);
}
