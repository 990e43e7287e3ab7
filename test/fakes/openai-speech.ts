// `POST /v1/audio/speech` of the fake OpenAI server: `{model, input, voice, response_format?}`
// answered with audio bytes (a scripted answer, else a few bytes of an Ogg Opus file for opus and an
// MP3 frame header for mp3) with the format's content type, or an error.
import { errorBodyFor } from './openai-reply.js';

/** The start of an Ogg Opus file (the first page's capture pattern and OpusHead): the default opus answer. */
export const FAKE_OPUS = Buffer.concat([
  Buffer.from('OggS', 'latin1'),
  Buffer.from([0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0x2a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 19]),
  Buffer.from('OpusHead', 'latin1'),
  Buffer.from([1, 1, 0x38, 1, 0x80, 0xbb, 0, 0, 0, 0, 0]),
]);
/** An MPEG audio frame header and a little padding: the default mp3 answer. */
export const FAKE_MP3 = Buffer.from([0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0, 0, 0, 0, 0]);

export type SpeechReply = { bytes: Buffer; contentType?: string } | { status: number; message?: string };

export const SPEECH_PATH = '/v1/audio/speech';

const TYPES: Readonly<Record<string, string>> = { opus: 'audio/ogg', mp3: 'audio/mpeg' };

/** The answer to one speech request: a status, its content type and body. */
export function answerSpeech(
  body: Record<string, unknown> | undefined,
  reply: SpeechReply | undefined,
): { status: number; contentType: string; body: Buffer } {
  const error = (status: number, message?: string) => ({
    status,
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify(errorBodyFor(status, message))),
  });
  if (body === undefined || typeof body.input !== 'string' || body.input.trim() === '') {
    return error(400, "'input' is a required property");
  }
  if (typeof body.model !== 'string' || body.model === '') return error(400, "'model' is a required property");
  if (typeof body.voice !== 'string' || body.voice === '') return error(400, "'voice' is a required property");
  const format = typeof body.response_format === 'string' ? body.response_format : 'mp3';
  if (!(format in TYPES)) return error(400, `'${format}' is not one of ['opus', 'mp3']`);
  if (reply !== undefined && 'status' in reply) return error(reply.status, reply.message);
  const bytes = reply?.bytes ?? (format === 'opus' ? FAKE_OPUS : FAKE_MP3);
  return { status: 200, contentType: reply?.contentType ?? TYPES[format] ?? 'audio/mpeg', body: bytes };
}
