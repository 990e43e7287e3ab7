// POSTs {event, ...context} as JSON to SESSION_WEBHOOK_URL on every new or reset session, with a
// 5-second timeout. Without SESSION_WEBHOOK_URL it does nothing.
import type { GatewayHookApi } from '@hermes/plugin-sdk';

const TIMEOUT_MS = 5_000;

export async function handle(event: string, context: Record<string, unknown>, hermes: GatewayHookApi) {
  const url = process.env.SESSION_WEBHOOK_URL;
  if (!url) return;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ event, ...context }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!response.ok) hermes.logger.warn(`session-webhook: ${url} answered ${response.status}`);
}
