/**
 * `tts.providers` of config.yaml: each `type: command` entry registered as a TTS provider of its
 * name, after the plugins (a plugin's provider keeps its name: the entry is skipped with a warning).
 * An entry is code the gateway runs, so it needs the operator's consent bound to its content
 * (`tts:<name>` in trust.json, as an mcp_servers entry): one not approved is not registered, the
 * trust gate reports it at start, and a voice answer asking for it says how to approve it.
 */
import { commandTtsProvider } from '@hermes/agent';
import type { PluginRegistries } from '@hermes/plugins';
import type { Logger } from '@hermes/protocol';
import type { Settings } from './settings.js';
import { approveCommand } from './trust/trust-gate.js';

/** What a TTS command provider's registration is owned by (the registry's `plugin`). */
export const ttsCommandOwner = (name: string): string => `config:tts.providers.${name}`;

/** Registers the approved `tts.providers` entries (`allows`: the trust gate's answer for `tts:<name>`). */
export function registerTtsCommands(
  settings: Pick<Settings, 'config' | 'env'>,
  registries: PluginRegistries,
  allows: (id: string) => boolean,
  logger: Logger,
): void {
  for (const [name, entry] of Object.entries(settings.config.tts.providers)) {
    if (!allows(`tts:${name}`)) continue; // reported once by the trust gate
    const taken = registries.ttsProviders.get(name);
    if (taken !== undefined) {
      logger.warn(
        { component: 'tts', provider: name, plugin: taken.plugin },
        `tts.providers.${name} is not registered: the plugin ${taken.plugin} registered a TTS provider of that name (rename the entry)`,
      );
      continue;
    }
    const provider = commandTtsProvider(name, entry, { env: settings.env });
    registries.ttsProviders.set(name, { name, plugin: ttsCommandOwner(name), provider });
  }
}

/** Why `tts.provider` names no registered provider, when it names a `tts.providers` entry (it waits for consent). */
export function missingTtsCommand(settings: Pick<Settings, 'config'>): (name: string) => string | null {
  return (name) =>
    Object.hasOwn(settings.config.tts.providers, name)
      ? `tts.providers.${name} is not approved (it runs a command): run \`${approveCommand(`tts:${name}`)}\` and restart`
      : null;
}
