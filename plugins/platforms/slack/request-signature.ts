/** Slack request signing: `x-slack-signature: v0=HMAC_SHA256(secret, "v0:" + ts + ":" + body)`, fresh timestamps only. */
import type { RouteRequest } from '@hermes/protocol';
import { isValidSlackRequest } from '@slack/bolt';

/** Slack's replay window: a request stamped further than this from now is refused. */
export const SIGNATURE_MAX_AGE_S = 5 * 60;

export type SignatureCheck =
  | { ok: true }
  | { ok: false; reason: 'missing headers' | 'stale timestamp' | 'bad signature' };

function header(headers: RouteRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Checks the timestamp window (both ways) and the signature (timing-safe, by Bolt) over the exact raw body. */
export function checkSignature(
  request: RouteRequest,
  signingSecret: string,
  nowMs: number = Date.now(),
): SignatureCheck {
  const signature = header(request.headers, 'x-slack-signature');
  const stamp = header(request.headers, 'x-slack-request-timestamp');
  if (signature === undefined || stamp === undefined || !/^\d+$/.test(stamp)) {
    return { ok: false, reason: 'missing headers' };
  }
  const timestampS = Number(stamp);
  if (Math.abs(Math.floor(nowMs / 1000) - timestampS) > SIGNATURE_MAX_AGE_S)
    return { ok: false, reason: 'stale timestamp' };
  const valid = isValidSlackRequest({
    signingSecret,
    body: request.rawBody,
    headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': timestampS },
    nowMilliseconds: nowMs,
  });
  return valid ? { ok: true } : { ok: false, reason: 'bad signature' };
}
