/** `[provider:]model` as `/model`, `--provider` and `model.fallback` write it. */

/** One model at one provider. */
export interface ModelChoice {
  provider: string;
  model: string;
}

/** `provider:model`, as shown to users. */
export function choiceLabel(choice: ModelChoice): string {
  return `${choice.provider}:${choice.model}`;
}

export type ParsedChoice = { ok: true; choice: ModelChoice } | { ok: false; error: string };

/**
 * Reads `provider:model` (split at the first colon: `ollama:llama3.2:3b` is Ollama's `llama3.2:3b`),
 * `provider:` or a bare known provider (its default model), or a bare model without a colon (on
 * `currentProvider`). A prefix that is not a known provider is an error naming the known ones.
 */
export function parseModelChoice(
  text: string,
  providers: { names(): readonly string[]; defaultModel(name: string): string | undefined },
  currentProvider: string,
): ParsedChoice {
  const input = text.trim();
  if (input === '') return { ok: false, error: 'no model given' };
  const known = providers.names();
  const colon = input.indexOf(':');
  if (colon < 0) {
    return known.includes(input)
      ? withDefault(input)
      : { ok: true, choice: { provider: currentProvider, model: input } };
  }
  const prefix = input.slice(0, colon);
  const rest = input.slice(colon + 1).trim();
  if (!known.includes(prefix)) {
    return {
      ok: false,
      error: `unknown model provider "${prefix}" (known: ${known.join(', ')}); write provider:model, e.g. ${known[0] ?? 'custom'}:${input}`,
    };
  }
  return rest === '' ? withDefault(prefix) : { ok: true, choice: { provider: prefix, model: rest } };

  function withDefault(name: string): ParsedChoice {
    const model = providers.defaultModel(name) ?? '';
    if (model === '')
      return { ok: false, error: `model provider "${name}" has no default model: write ${name}:<model>` };
    return { ok: true, choice: { provider: name, model } };
  }
}
