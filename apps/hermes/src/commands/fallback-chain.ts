/**
 * model.fallback as `hermes fallback` sees it: the chain as config.yaml writes it (one
 * `provider:model`, or a list tried in order), each entry with its provider's base URL and whether
 * its key is set (never the key), and the chain written back through the config writer (comments
 * kept, validated, written atomically).
 */
import { CUSTOM_PROVIDER, choiceLabel, type ModelChoice, ModelProviders, parseModelChoice } from '@hermes/agent';
import { type HermesConfig, setConfigValue } from '@hermes/config';
import type { GlobalOptions } from '../main.js';
import { pluginRegistrations } from '../plugin-registrations.js';
import { loadSettings } from '../settings.js';

/** One link of the chain (the JSON form's element). */
export interface FallbackEntry {
  /** 1-based place in the chain */
  position: number;
  /** as config.yaml writes it */
  written: string;
  /** `provider:model`, or null when it does not parse */
  model: string | null;
  provider: string | null;
  base_url: string | null;
  /** where the key comes from: an environment variable, `model.api_key` for custom, or null for none */
  api_key_env: string | null;
  key_set: boolean;
  /** why it is not usable (an unknown provider, no default model) */
  error: string | null;
}

/** What the fallback commands work on: the home, its config, the providers and the chain. */
export interface FallbackContext {
  home: string;
  config: HermesConfig;
  providers: ModelProviders;
  /** model.provider (or --provider): where a bare model lives */
  primaryProvider: string;
  /** model.fallback as written, as a list */
  chain: string[];
}

/** model.fallback as a list (a single string is a one-item chain). */
export function chainOf(config: HermesConfig): string[] {
  const value = config.model.fallback;
  return value === undefined ? [] : typeof value === 'string' ? [value] : [...value];
}

export async function fallbackContext(options: GlobalOptions): Promise<FallbackContext> {
  const { home, config, env } = loadSettings(options);
  const { registries } = await pluginRegistrations({ home, config, env });
  const primaryProvider = options.provider ?? config.model.provider;
  const providers = new ModelProviders({
    registered: () => registries.modelProviders.values(),
    config: { ...config.model, provider: primaryProvider, model: '' },
    env,
    makeClient: () => {
      throw new Error('the fallback commands build no clients');
    },
  });
  return { home, config, providers, primaryProvider, chain: chainOf(config) };
}

/** Reads `text` as a fallback: `provider:model` (a bare model: the primary's provider). */
export function parseFallback(
  ctx: FallbackContext,
  text: string,
): { ok: true; choice: ModelChoice } | { ok: false; error: string } {
  return parseModelChoice(text, ctx.providers, ctx.primaryProvider);
}

export function fallbackEntries(ctx: FallbackContext): FallbackEntry[] {
  return ctx.chain.map((written, i) => {
    const parsed = parseFallback(ctx, written);
    const base = { position: i + 1, written };
    if (!parsed.ok) {
      return {
        ...base,
        model: null,
        provider: null,
        base_url: null,
        api_key_env: null,
        key_set: false,
        error: parsed.error,
      };
    }
    const p = ctx.providers.profile(parsed.choice.provider);
    const custom = parsed.choice.provider === CUSTOM_PROVIDER;
    return {
      ...base,
      model: choiceLabel(parsed.choice),
      provider: parsed.choice.provider,
      base_url: p?.baseUrl ?? null,
      api_key_env: custom ? 'model.api_key' : p?.apiKeyEnv ? p.apiKeyEnv : null,
      key_set: (p?.apiKey ?? '') !== '',
      error: null,
    };
  });
}

/** The index of `text` in the chain: written the same, or the same `provider:model` once parsed. */
export function indexInChain(ctx: FallbackContext, text: string): number {
  const exact = ctx.chain.indexOf(text.trim());
  if (exact >= 0) return exact;
  const wanted = parseFallback(ctx, text);
  if (!wanted.ok) return -1;
  const label = choiceLabel(wanted.choice);
  return ctx.chain.findIndex((written) => {
    const p = parseFallback(ctx, written);
    return p.ok && choiceLabel(p.choice) === label;
  });
}

/** Writes the chain to config.yaml: one model as a plain string, more as a list, none as `[]`. */
export function writeChain(home: string, chain: readonly string[]): string {
  const value = chain.length === 1 ? (chain[0] as string) : JSON.stringify(chain);
  setConfigValue({ home, key: 'model.fallback', value });
  return chain.length === 0 ? 'model.fallback = [] (no fallback)' : `model.fallback = ${chain.join(' → ')}`;
}

/** The listing's lines: the primary, then each fallback with its URL and key state. */
export function chainLines(ctx: FallbackContext, entries: readonly FallbackEntry[]): string[] {
  let primary: string;
  try {
    primary = choiceLabel(ctx.providers.primary());
  } catch (err) {
    primary = `(${err instanceof Error ? err.message : String(err)})`;
  }
  if (entries.length === 0) {
    return [
      `Primary: ${primary}`,
      'No fallback (model.fallback is unset or empty). Add one with: hermes fallback add provider:model',
    ];
  }
  const rows = entries.map((e) =>
    e.error !== null
      ? [`${e.position}.`, e.written, `✗ ${e.error}`, '']
      : [
          `${e.position}.`,
          e.model ?? '',
          e.base_url || '-',
          e.api_key_env === null ? 'no key needed' : `${e.api_key_env}: ${e.key_set ? 'set' : 'not set'}`,
        ],
  );
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return [
    `Primary: ${primary}`,
    'Fallbacks, tried in order when the primary still fails after its retries:',
    ...rows.map((r) => `  ${r.map((cell, i) => (i < 3 ? cell.padEnd(widths[i] ?? 0) : cell)).join('  ')}`.trimEnd()),
  ];
}
