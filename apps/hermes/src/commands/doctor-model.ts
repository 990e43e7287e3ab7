/**
 * `hermes doctor`'s model checks: does the configured model answer (a one-token completion), and
 * does the endpoint list it (GET /models; some servers have no such route, and doctor says so).
 */
import { PLACEHOLDER_API_KEY, summarizeErrorText } from '@hermes/agent';
import type { HermesConfig } from '@hermes/config';

export const MODEL_PROBE_TIMEOUT_MS = 5_000;
/** A first completion may load the model (Ollama, llama.cpp): allow more than for the listing. */
const COMPLETION_TIMEOUT_CAP_MS = 60_000;

export interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
}

type Listing =
  | { kind: 'listed'; ids: string[] }
  | { kind: 'unlisted'; ids: string[] }
  | { kind: 'none'; status: number }
  | { kind: 'denied'; status: number }
  | { kind: 'unreachable'; reason: string };

function causeOf(err: unknown): string {
  if (err instanceof Error && err.name === 'TimeoutError') return 'timed out';
  return err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
}

async function listModels(config: HermesConfig, base: string, headers: Record<string, string>): Promise<Listing> {
  try {
    const res = await fetch(`${base}/models`, { headers, signal: AbortSignal.timeout(MODEL_PROBE_TIMEOUT_MS) });
    if (res.status === 401 || res.status === 403) {
      await res.body?.cancel();
      return { kind: 'denied', status: res.status };
    }
    if (!res.ok) {
      await res.body?.cancel();
      return { kind: 'none', status: res.status };
    }
    const body = (await res.json().catch(() => null)) as { data?: { id?: unknown }[] } | null;
    if (!Array.isArray(body?.data)) return { kind: 'none', status: res.status };
    const ids = body.data.map((m) => (typeof m?.id === 'string' ? m.id : '')).filter(Boolean);
    return ids.includes(config.model.default) ? { kind: 'listed', ids } : { kind: 'unlisted', ids };
  } catch (err) {
    return { kind: 'unreachable', reason: causeOf(err) };
  }
}

/** null when the model answered, else why not. */
async function oneToken(config: HermesConfig, base: string, headers: Record<string, string>): Promise<string | null> {
  try {
    const res = await fetch(`${base}/chat/completions`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: config.model.default,
        messages: [{ role: 'user', content: 'Say OK.' }],
        max_tokens: 1,
      }),
      signal: AbortSignal.timeout(Math.min(config.model.timeout_s * 1000, COMPLETION_TIMEOUT_CAP_MS)),
    });
    const text = await res.text();
    if (!res.ok) {
      let detail = text;
      try {
        const parsed = JSON.parse(text) as { error?: { message?: unknown } };
        if (typeof parsed.error?.message === 'string') detail = parsed.error.message;
      } catch {
        // not JSON: an HTML page or plain text, summarized below
      }
      return `HTTP ${res.status}: ${summarizeErrorText(detail)}`;
    }
    return null;
  } catch (err) {
    return causeOf(err);
  }
}

/** The `model` (answers) and `model list` (served) checks. */
export async function probeModel(config: HermesConfig): Promise<Check[]> {
  const where = config.model.base_url;
  if (!config.model.default) {
    return [{ name: 'model', status: 'fail', detail: 'no model configured (model.default or HERMES_INFERENCE_MODEL)' }];
  }
  const base = where.replace(/\/+$/, '');
  const headers = { authorization: `Bearer ${config.model.api_key || PLACEHOLDER_API_KEY}` };
  const listing = await listModels(config, base, headers);
  if (listing.kind === 'unreachable') {
    return [{ name: 'model', status: 'fail', detail: `cannot reach ${where}: ${listing.reason}` }];
  }
  if (listing.kind === 'denied') {
    return [{ name: 'model', status: 'fail', detail: `${where} refused the API key (HTTP ${listing.status})` }];
  }
  const failure = await oneToken(config, base, headers);
  const model = config.model.default;
  const checks: Check[] = [
    failure === null
      ? { name: 'model', status: 'ok', detail: `${model} at ${where} answered a one-token completion` }
      : {
          name: 'model',
          status: 'fail',
          detail: `${model} at ${where} did not answer a one-token completion: ${failure}`,
        },
  ];
  const shown = (ids: string[]) => `${ids.slice(0, 10).join(', ')}${ids.length > 10 ? `, … (${ids.length})` : ''}`;
  if (listing.kind === 'listed') {
    checks.push({ name: 'model list', status: 'ok', detail: `GET /models lists ${model}` });
  } else if (listing.kind === 'unlisted') {
    checks.push({
      name: 'model list',
      status: failure === null ? 'warn' : 'fail',
      detail: `GET /models does not list ${model}; it lists: ${listing.ids.length ? shown(listing.ids) : 'nothing'}`,
    });
  } else {
    checks.push({
      name: 'model list',
      status: 'warn',
      detail: `${where} has no /models (HTTP ${listing.status}): the model id could not be checked there`,
    });
  }
  return checks;
}
