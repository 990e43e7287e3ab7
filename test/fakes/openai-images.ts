// `POST /v1/images/generations` of the fake OpenAI server: `{model, prompt, n?, size?}` answered
// with `{created, data: [{b64_json}]}` (a scripted image, else a 1x1 PNG), a URL, or an error.
import { errorBodyFor } from './openai-reply.js';

/** A 1x1 PNG, the default image. */
export const FAKE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export type ImageReply = { bytes: Buffer } | { url: string } | { status: number; message?: string };

export const IMAGES_PATH = '/v1/images/generations';

/** The answer to one images request: a status and a JSON body. */
export function answerImages(
  body: Record<string, unknown> | undefined,
  reply: ImageReply | undefined,
  now: () => number,
): { status: number; body: object } {
  if (body === undefined || typeof body.prompt !== 'string' || body.prompt.trim() === '') {
    return { status: 400, body: errorBodyFor(400, "'prompt' is a required property") };
  }
  if (reply !== undefined && 'status' in reply)
    return { status: reply.status, body: errorBodyFor(reply.status, reply.message) };
  const created = Math.floor(now() / 1000);
  if (reply !== undefined && 'url' in reply) return { status: 200, body: { created, data: [{ url: reply.url }] } };
  const bytes = reply?.bytes ?? FAKE_PNG;
  return {
    status: 200,
    body: { created, data: [{ b64_json: bytes.toString('base64'), revised_prompt: body.prompt }] },
  };
}
