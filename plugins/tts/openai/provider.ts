/**
 * `POST <base>/audio/speech` with `{model, input, voice, response_format}` (JSON); the answer's
 * body is the audio itself (Ogg Opus for `opus`, MP3 for `mp3`), read up to 25 MB.
 */
import { defineTtsProvider, type SynthesizedSpeech, type TtsRequest } from '@hermes/plugin-sdk';

/** a long answer as Opus is well under this; more is not a speech answer */
export const MAX_SPEECH_BYTES = 25 * 1024 * 1024;
const MIME_OF_FORMAT = { opus: 'audio/ogg', mp3: 'audio/mpeg' } as const;

/** The endpoint without credentials or query, for messages. */
const shown = (url: URL): string => `${url.origin}${url.pathname}`;

/** The error message of a JSON error body (`{error: {message}}` or `{error: "..."}`), else a short text excerpt. */
function errorDetail(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === 'string' && message.trim() !== '') return `: ${message.trim().slice(0, 200)}`;
  } catch {
    // not JSON
  }
  const text = body.trim().slice(0, 200);
  return text === '' ? '' : `: ${text}`;
}

/** The response body, refused past `max` bytes. */
async function readCapped(response: Response, max: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > max) throw new Error(`the speech answer is ${declared} bytes, over the cap of ${max}`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body === null) return new Uint8Array();
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > max) throw new Error(`the speech answer passed the cap of ${max} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function synthesize(request: TtsRequest): Promise<SynthesizedSpeech> {
  const format = request.format ?? 'opus';
  const url = new URL(`${request.baseUrl.replace(/\/+$/, '')}/audio/speech`);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(request.apiKey === '' ? {} : { authorization: `Bearer ${request.apiKey}` }),
      },
      body: JSON.stringify({
        model: request.model,
        input: request.text,
        voice: request.voice ?? 'alloy',
        response_format: format,
      }),
      signal: request.signal,
    });
  } catch (error) {
    if (request.signal.aborted) throw new Error(`POST ${shown(url)} did not answer in time (or was interrupted)`);
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new Error(`cannot reach ${shown(url)}: ${cause}`);
  }
  if (!response.ok) {
    const body = await response.text().catch(() => '');
    throw new Error(`POST ${shown(url)} answered HTTP ${response.status}${errorDetail(body)}`);
  }
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json' || type.startsWith('text/')) {
    const body = await response.text().catch(() => '');
    throw new Error(`POST ${shown(url)} answered ${type} instead of audio${errorDetail(body)}`);
  }
  const bytes = await readCapped(response, MAX_SPEECH_BYTES);
  if (bytes.length === 0) throw new Error(`POST ${shown(url)} answered no audio (an empty body)`);
  return { bytes, mimeType: type.startsWith('audio/') ? type : MIME_OF_FORMAT[format] };
}

export const openAiSpeechProvider = defineTtsProvider({
  name: 'openai',
  isAvailable: () => true,
  synthesize,
});
