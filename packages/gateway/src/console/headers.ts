/** The security headers of every console and chat page, asset and API answer. */
import type { FastifyReply, FastifyRequest } from 'fastify';

export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** An `onRequest` hook setting them (early, so every answer, 401s and 403s included, has them). */
export async function securityHeaders(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.headers(SECURITY_HEADERS);
}
