/** `hermes plugins install-deps NAME` on the plugins command (its code loads only when it runs). */
import type { Command } from 'commander';
import type { GlobalOptions } from './main.js';

export function addPluginDepsCommand(plugins: Command, globals: (cmd: Command) => GlobalOptions): void {
  plugins
    .command('install-deps')
    .description(
      "install NAME's optional_dependencies into HERMES_HOME/node_modules with npm (needs security.allow_lazy_installs: true)",
    )
    .argument('<name>', 'plugin key, as shown by plugins list')
    .option('--yes', 'install without asking (scripts; never from the agent terminal)')
    .action(async (name: string, opts: { yes?: boolean }, cmd: Command) => {
      const { pluginsInstallDeps } = await import('./commands/plugins-deps.js');
      await pluginsInstallDeps(name, globals(cmd), opts.yes === true);
    });
}
