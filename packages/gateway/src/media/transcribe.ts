/**
 * Speech to text through an OpenAI-compatible `POST <base>/audio/transcriptions` (multipart: `file`,
 * `model`), xAI's `POST <base>/stt` (multipart: `file`, the last part as xAI asks; its one model
 * needs no name), or a local command (`HERMES_LOCAL_STT_COMMAND`, stt-command.ts). Both endpoints
 * answer `{"text": ...}`. The transcript is kept next to the cached file, so a turn redone after a
 * restart does not transcribe again.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { transcribeWithCommand } from './stt-command.js';

export interface SttSettings {
  /** stt.provider: `openai` (an OpenAI-compatible endpoint, the default) or `xai` */
  provider?: 'openai' | 'xai';
  /** e.g. http://127.0.0.1:8000/v1 (stt.base_url, default model.base_url; xai: https://api.x.ai/v1) */
  baseUrl: string;
  /** stt.model, default whisper-1 (not sent to xai) */
  model: string;
  /** model.api_key (xai: XAI_API_KEY); empty: no Authorization header */
  apiKey: string;
  /** stt.timeout_s in ms */
  timeoutMs: number;
  /** HERMES_LOCAL_STT_COMMAND: a shell template run instead of the HTTP endpoint */
  command?: string;
}

import { TranscriptionError } from './transcription-error.js';

export { TranscriptionError };

const transcriptPath = (path: string): string => `${path}.transcript.txt`;

async function cachedTranscript(path: string): Promise<string | null> {
  try {
    return await readFile(transcriptPath(path), 'utf8');
  } catch {
    return null;
  }
}

function errorDetail(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    const error = parsed.error;
    // OpenAI's {error: {message}}, xAI's {code, error: "..."}
    const message = typeof error === 'string' ? error : (error as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string') return `: ${message.slice(0, 200)}`;
  } catch {
    // not JSON: the status says enough
  }
  return '';
}

/** The file's transcript (trimmed); rejects with a TranscriptionError naming what went wrong. */
export async function transcribe(
  file: { path: string; mimeType?: string | undefined },
  stt: SttSettings,
  signal?: AbortSignal,
): Promise<string> {
  const cached = await cachedTranscript(file.path);
  if (cached !== null) return cached;
  if (stt.command !== undefined) {
    const transcript = await transcribeWithCommand(
      file.path,
      stt.command,
      { model: stt.model, timeoutMs: stt.timeoutMs },
      signal,
    );
    await writeFile(transcriptPath(file.path), transcript, { mode: 0o600 }).catch(() => {});
    return transcript;
  }
  const xai = stt.provider === 'xai';
  if (xai && stt.apiKey === '') throw new TranscriptionError('XAI_API_KEY is not set (stt.provider: xai)');
  const data = await readFile(file.path);
  const form = new FormData();
  if (!xai) form.append('model', stt.model);
  form.append('file', new Blob([data], { type: file.mimeType ?? 'application/octet-stream' }), basename(file.path));
  const url = `${stt.baseUrl.replace(/\/+$/, '')}/${xai ? 'stt' : 'audio/transcriptions'}`;
  const timeout = AbortSignal.timeout(stt.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      body: form,
      headers: stt.apiKey === '' ? {} : { authorization: `Bearer ${stt.apiKey}` },
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (timeout.aborted)
      throw new TranscriptionError(`the transcription endpoint did not answer within ${stt.timeoutMs / 1000} s`);
    throw new TranscriptionError(`the transcription endpoint is unreachable (${(error as Error).message})`);
  }
  const body = await response.text().catch(() => '');
  if (!response.ok)
    throw new TranscriptionError(`the transcription endpoint answered HTTP ${response.status}${errorDetail(body)}`);
  let text: unknown;
  try {
    text = (JSON.parse(body) as { text?: unknown }).text;
  } catch {
    text = undefined;
  }
  if (typeof text !== 'string') throw new TranscriptionError('the transcription endpoint answered without a text');
  const transcript = text.trim();
  await writeFile(transcriptPath(file.path), transcript, { mode: 0o600 }).catch(() => {});
  return transcript;
}
