export { fillCommandArgv } from './command-argv.js';
export {
  COMMAND_SPEECH_MAX_BYTES,
  type CommandTtsOptions,
  type CommandTtsSpec,
  commandTtsProvider,
} from './command-provider.js';
export { capSpeech, plainSpeech, type SpeakableText, speakableText } from './speakable-text.js';
export {
  createSpeechSynthesizer,
  type SpeechAudio,
  SpeechError,
  type SpeechSynthesizer,
  type SpeechSynthesizerOptions,
  type TtsSettings,
} from './speech-synthesizer.js';
