export { capSpeech, plainSpeech, type SpeakableText, speakableText } from './speakable-text.js';
export {
  createSpeechSynthesizer,
  type SpeechAudio,
  SpeechError,
  type SpeechSynthesizer,
  type SpeechSynthesizerOptions,
  type TtsSettings,
} from './speech-synthesizer.js';
