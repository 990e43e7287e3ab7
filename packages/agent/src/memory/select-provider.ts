/**
 * `memory.provider`: `builtin` (the default) or the name a plugin registered with
 * `ctx.registerMemoryProvider`. An unknown name turns memory off with an error naming the
 * registered ones (logged at start, and the `memory` tool's answer); the turns go on.
 */
import type { MemoryProvider } from '@hermes/protocol';
import { BUILTIN_MEMORY_PROVIDER } from './builtin-provider.js';

export type ProviderChoice = { provider: MemoryProvider; problem: null } | { provider: null; problem: string };

export function selectMemoryProvider(
  name: string,
  registered: ReadonlyMap<string, { provider: MemoryProvider; plugin?: string }>,
  builtin: () => MemoryProvider,
): ProviderChoice {
  if (name === BUILTIN_MEMORY_PROVIDER) return { provider: builtin(), problem: null };
  const entry = registered.get(name);
  if (entry) return { provider: entry.provider, problem: null };
  const known = [BUILTIN_MEMORY_PROVIDER, ...[...registered.keys()].sort()].join(', ');
  return {
    provider: null,
    problem:
      `memory.provider "${name}" is not registered (registered: ${known}); ` +
      `install or enable a plugin in plugins/memory/${name}/, or set memory.provider to one of those`,
  };
}
