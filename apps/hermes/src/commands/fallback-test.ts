/**
 * `hermes fallback test [provider:model]`: one tiny request (a one-token completion) to each
 * fallback of model.fallback, or to the one named, at its provider's base URL with its key and
 * headers; ok with the latency, or the error. Nothing is retried: this is what the endpoint says now.
 */
import { choiceLabel, type ModelChoice, PLACEHOLDER_API_KEY, summarizeErrorText } from '@hermes/agent';
import { CliExit } from '../cli-error.js';
import { type FallbackContext, parseFallback } from './fallback-chain.js';

/** A first completion may load the model (Ollama, llama.cpp): allow it up to a minute. */
const PROBE_CAP_MS = 60_000;

export interface ProbeResult {
  model: string;
  ok: boolean;
  ms: number;
  /** why it failed (HTTP status and the server's message, a timeout, no connection) */
  error: string | null;
}

function causeOf(err: unknown): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return 'timed out';
  return err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
}

/** One one-token completion of `choice`; never throws. */
export async function probeFallback(ctx: FallbackContext, choice: ModelChoice): Promise<ProbeResult> {
  const model = choiceLabel(choice);
  const profile = ctx.providers.profile(choice.provider);
  const started = performance.now();
  const done = (error: string | null): ProbeResult => ({
    model,
    ok: error === null,
    ms: Math.round(performance.now() - started),
    error,
  });
  if (!profile) return done(`unknown model provider "${choice.provider}"`);
  if (profile.baseUrl === '') return done(`model provider "${choice.provider}" has no base URL`);
  try {
    const res = await fetch(`${profile.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: {
        ...profile.headers,
        authorization: `Bearer ${profile.apiKey || PLACEHOLDER_API_KEY}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ model: choice.model, messages: [{ role: 'user', content: 'Say OK.' }], max_tokens: 1 }),
      signal: AbortSignal.timeout(Math.min(ctx.config.model.timeout_s * 1000, PROBE_CAP_MS)),
    });
    const text = await res.text();
    if (res.ok) return done(null);
    let detail = text;
    try {
      const parsed = JSON.parse(text) as { error?: { message?: unknown } };
      if (typeof parsed.error?.message === 'string') detail = parsed.error.message;
    } catch {
      // not JSON: an HTML page or plain text, summarized below
    }
    return done(`HTTP ${res.status}: ${summarizeErrorText(detail)}`);
  } catch (err) {
    return done(causeOf(err));
  }
}

/** The models to test: the one named, else every fallback of the chain (in order). */
function targets(ctx: FallbackContext, named: string | undefined): ModelChoice[] {
  if (named !== undefined) {
    const parsed = parseFallback(ctx, named);
    if (!parsed.ok) throw new CliExit(2, `cannot test "${named}": ${parsed.error}`);
    return [parsed.choice];
  }
  if (ctx.chain.length === 0) {
    throw new CliExit(
      1,
      'no fallback to test: model.fallback is unset (add one with hermes fallback add provider:model)',
    );
  }
  return ctx.chain.map((written) => {
    const parsed = parseFallback(ctx, written);
    if (!parsed.ok) throw new CliExit(78, `model.fallback "${written}": ${parsed.error}`);
    return parsed.choice;
  });
}

/** Tests each target in order, printing a line per model; the results. */
export async function testFallbacks(
  ctx: FallbackContext,
  named: string | undefined,
  write: (line: string) => void,
): Promise<ProbeResult[]> {
  const results: ProbeResult[] = [];
  for (const choice of targets(ctx, named)) {
    const r = await probeFallback(ctx, choice);
    results.push(r);
    write(r.ok ? `✓ ${r.model}: ok (${r.ms} ms)` : `✗ ${r.model}: ${r.error} (${r.ms} ms)`);
  }
  return results;
}
