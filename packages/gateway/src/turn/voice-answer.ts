/**
 * A voice answer: when the chat's voice mode wants one (voice-mode.ts), the answer's text is
 * spoken by the TTS provider (`tts.*`), saved in the asking user's media folder
 * (cache/media/<owner>/voice/) and attached as a `MEDIA:` line, so it goes through the outbox
 * after the text like any file: a voice note where the platform has them (an `.opus` file:
 * Telegram `sendVoice`), an audio file elsewhere. A synthesis that fails is logged and the text
 * goes alone: a voice answer never costs the text answer.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SpeechSynthesizer } from '@hermes/agent';
import type { Logger, MessageEvent } from '@hermes/protocol';
import { userMediaDir } from '../users/user-media.js';
import { type VoiceModePorts, voiceMode, wantsVoice } from './voice-mode.js';

export interface VoiceAnswerPorts {
  speech: SpeechSynthesizer;
  mode: VoiceModePorts;
  /** HERMES_HOME/cache/media: the per-user folders */
  cacheDir: string;
  /** the process's secret redactor (nothing secret is spoken either) */
  redact?: (text: string) => string;
  logger: Logger;
}

/** The `MEDIA:` line of the answer's voice note, or null (not wanted here, or the synthesis failed). */
export async function voiceAnswerLine(
  ports: VoiceAnswerPorts,
  turn: { event: MessageEvent; owner: string; answer: string; signal?: AbortSignal },
): Promise<string | null> {
  const { event } = turn;
  const where = { platform: event.platform, chatId: event.source.chatId };
  try {
    if (!wantsVoice(await voiceMode(ports.mode, where.platform, where.chatId), event)) return null;
    const unavailable = ports.speech.unavailable();
    if (unavailable !== null) {
      ports.logger.warn({ ...where, reason: unavailable }, 'voice answer: no voice can be made; the text goes alone');
      return null;
    }
    const text = ports.redact ? ports.redact(turn.answer) : turn.answer;
    const audio = await ports.speech.synthesize(text, turn.signal);
    const digest = createHash('sha256').update(audio.bytes).digest('hex').slice(0, 16);
    const dir = path.join(userMediaDir(ports.cacheDir, turn.owner), 'voice');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, `voice-${digest}${audio.extension}`);
    await writeFile(file, audio.bytes, { mode: 0o600 });
    if (audio.truncated)
      ports.logger.info(where, 'voice answer: the answer was longer than tts.max_chars; spoken up to there');
    return `MEDIA: ${file}`;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ports.logger.warn({ ...where, error: message }, 'voice answer failed; the text goes alone');
    return null;
  }
}
