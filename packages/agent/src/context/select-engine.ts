/** `context.engine`: the built-in `compressor` or an engine a plugin registered; an unknown name is a config error. */
import { type ContextEngine, ERROR_CODES, HermesError } from '@hermes/protocol';
import { COMPRESSOR, compressor } from './compressor.js';

/** The engine named `name`: a plugin's of that name first, then the built-in one. */
export function selectContextEngine(
  name: string,
  registered: ReadonlyMap<string, { engine: ContextEngine }>,
): ContextEngine {
  const plugin = registered.get(name);
  if (plugin) return plugin.engine;
  if (name === COMPRESSOR) return compressor;
  const known = [COMPRESSOR, ...[...registered.keys()].filter((k) => k !== COMPRESSOR)].join(', ');
  throw new HermesError(
    ERROR_CODES.CONFIG_KEY,
    `context.engine: no context engine "${name}" is registered (registered: ${known}); ` +
      'install its plugin under plugins/context_engine/ or set context.engine to one of these',
  );
}
