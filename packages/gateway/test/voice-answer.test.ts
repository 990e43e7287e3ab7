// Voice answers: the chat's /voice mode (kept in platform state, the default from tts.voice_answers),
// which messages get a voice note, the note saved in the asker's media folder as a MEDIA line, and
// a synthesis that fails or cannot run costing nothing but the voice note.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SpeechSynthesizer } from '@hermes/agent';
import type { MessageEvent } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { voiceAnswerLine } from '../src/turn/voice-answer.js';
import { type VoiceMode, voiceCommand, voiceKey, wantsVoice } from '../src/turn/voice-mode.js';
import { userMediaDir } from '../src/users/user-media.js';

function stateStore() {
  const values = new Map<string, string>();
  return {
    values,
    platformState: { get: (platform: string, key: string) => values.get(`${platform}/${key}`) },
    commit: async (writes: readonly unknown[]) => {
      for (const w of writes as { kind: string; platform: string; key: string; value?: string }[]) {
        if (w.kind === 'platformState.set') values.set(`${w.platform}/${w.key}`, w.value ?? '');
        if (w.kind === 'platformState.delete') values.delete(`${w.platform}/${w.key}`);
      }
      return [];
    },
  };
}

const event = (attachments: MessageEvent['attachments'] = []): MessageEvent =>
  ({
    kind: 'text',
    platform: 'telegram',
    messageId: '1',
    text: '',
    source: { chatId: '42', userId: '42', chatType: 'dm' },
    internal: false,
    receivedAt: 0,
    raw: null,
    attachments,
  }) as MessageEvent;
const voiceNote = event([{ kind: 'audio', path: '/x/voice.ogg', fileName: 'voice.ogg', mimeType: 'audio/ogg' }]);

const logs: { msg: string; obj: unknown }[] = [];
const logger = {
  info: (obj: unknown, msg: string) => logs.push({ obj, msg }),
  warn: (obj: unknown, msg: string) => logs.push({ obj, msg }),
  error: () => {},
  debug: () => {},
  trace: () => {},
  fatal: () => {},
  child: () => logger,
} as unknown as Parameters<typeof voiceAnswerLine>[0]['logger'];

function speech(over: Partial<SpeechSynthesizer> = {}): SpeechSynthesizer & { spoken: string[] } {
  const spoken: string[] = [];
  return {
    spoken,
    unavailable: () => null,
    synthesize: async (text) => {
      spoken.push(text);
      return { bytes: Buffer.from('OggS voice'), mimeType: 'audio/ogg', extension: '.opus', truncated: false };
    },
    ...over,
  };
}

describe('the voice mode', () => {
  it('auto answers voice notes (any audio) with voice; on every message; off none', () => {
    const modes: VoiceMode[] = ['auto', 'on', 'off'];
    expect(modes.map((m) => [wantsVoice(m, voiceNote), wantsVoice(m, event())])).toEqual([
      [true, false],
      [true, true],
      [false, false],
    ]);
    const mp3 = event([{ kind: 'document', path: '/x/a.mp3', mimeType: 'audio/mpeg' }]);
    expect(wantsVoice('auto', mp3)).toBe(true);
  });

  it("/voice shows, sets and keeps the chat's mode; a bad argument is usage", async () => {
    const store = stateStore();
    const ports = { ...store, defaultMode: 'auto' as const };
    const ctx = (args: string) => ({ platform: 'telegram', chatId: '42', args });
    expect(await voiceCommand(ports, ctx(''), null)).toMatch(/^Voice answers: auto\./);
    expect(await voiceCommand(ports, ctx('ON'), null)).toMatch(/^Voice answers: on\./);
    expect(store.values.get(`telegram/${voiceKey('42')}`)).toBe('on');
    expect(await voiceCommand(ports, ctx('off'), null)).toMatch(/text only/);
    expect(await voiceCommand(ports, ctx(''), null)).toMatch(/^Voice answers: off\./);
    expect(await voiceCommand(ports, ctx('loud'), null)).toBe('Usage: /voice, /voice on, /voice off or /voice auto');
    expect(await voiceCommand(ports, ctx('on'), 'tts.provider "x" is not registered (registered: none)')).toContain(
      '(No voice can be made now: tts.provider "x" is not registered (registered: none).)',
    );
  });
});

describe('voiceAnswerLine', () => {
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'hermes-voice-'));
  const ports = (synth: SpeechSynthesizer, defaultMode: VoiceMode = 'auto') => ({
    speech: synth,
    mode: { ...stateStore(), defaultMode },
    cacheDir,
    redact: (text: string) => text.replaceAll('sk-secret', '***'),
    logger,
  });

  it("speaks the redacted answer into the asker's voice folder and answers its MEDIA line", async () => {
    const synth = speech();
    const line = await voiceAnswerLine(ports(synth), {
      event: voiceNote,
      owner: 'telegram:42',
      answer: 'the key is sk-secret',
    });
    expect(synth.spoken).toEqual(['the key is ***']);
    expect(line).toMatch(/^MEDIA: .*\/voice\/voice-[0-9a-f]{16}\.opus$/);
    const file = (line ?? '').slice('MEDIA: '.length);
    expect(path.dirname(file)).toBe(path.join(userMediaDir(cacheDir, 'telegram:42'), 'voice'));
    expect(readFileSync(file, 'utf8')).toBe('OggS voice');
  });

  it('nothing when the mode does not want voice', async () => {
    const synth = speech();
    expect(await voiceAnswerLine(ports(synth), { event: event(), owner: 'telegram:42', answer: 'hi' })).toBeNull();
    expect(
      await voiceAnswerLine(ports(synth, 'off'), { event: voiceNote, owner: 'telegram:42', answer: 'hi' }),
    ).toBeNull();
    expect(synth.spoken).toEqual([]);
  });

  it('a failed or impossible synthesis is a warning and no voice note, never a throw', async () => {
    logs.length = 0;
    const failing = speech({
      synthesize: () => Promise.reject(new Error('TTS provider "openai" failed: answered HTTP 500')),
    });
    expect(await voiceAnswerLine(ports(failing), { event: voiceNote, owner: 'telegram:42', answer: 'hi' })).toBeNull();
    expect(logs.at(-1)).toMatchObject({
      msg: 'voice answer failed; the text goes alone',
      obj: { error: 'TTS provider "openai" failed: answered HTTP 500' },
    });
    const missing = speech({ unavailable: () => 'tts.provider "x" is not registered (registered: none)' });
    expect(await voiceAnswerLine(ports(missing), { event: voiceNote, owner: 'telegram:42', answer: 'hi' })).toBeNull();
    expect(logs.at(-1)?.msg).toBe('voice answer: no voice can be made; the text goes alone');
  });
});
