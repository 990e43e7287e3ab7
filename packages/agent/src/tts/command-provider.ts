/**
 * A `tts.providers.<name>` entry of `type: command` as a TTS provider: any command-line tool speaks
 * the answer. Each synthesis gets a private temporary folder (its working directory) holding
 * `input.txt` (the text, `{input_path}`); the text is also written to the tool's stdin. The audio is
 * the file the tool wrote at `{output_path}` when its argv names it, else what it printed on
 * stdout; either is read up to COMMAND_SPEECH_MAX_BYTES. A non-zero exit, no audio or a file
 * over the cap is an error naming the program (the synthesizer adds the provider's name); the
 * folder is removed afterwards, whatever happened.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SynthesizedSpeech, TtsFormat, TtsProvider, TtsRequest } from '@hermes/protocol';
import { fillCommandArgv, namesPlaceholder } from './command-argv.js';
import { programName, runSpeechProcess } from './speech-process.js';

/** the most audio a command may produce (as the bundled openai provider: a long answer as Opus is far less) */
export const COMMAND_SPEECH_MAX_BYTES = 25 * 1024 * 1024;
/** stdout kept when the audio goes to {output_path} (read by nothing: a chatty tool is not an error) */
const IGNORED_STDOUT_BYTES = 64 * 1024;

export type CommandAudioFormat = TtsFormat | 'wav';

/** `tts.providers.<name>` as config.yaml gives it. */
export interface CommandTtsSpec {
  type: 'command';
  command: readonly string[];
  output_format?: CommandAudioFormat | undefined;
}

export interface CommandTtsOptions {
  /** the tool's environment (default: the process's, HERMES_HOME/.env applied) */
  env?: NodeJS.ProcessEnv;
  /** where the per-synthesis folders are made (default: the OS temp folder) */
  tmpRoot?: string;
  /** the audio's cap in bytes (default COMMAND_SPEECH_MAX_BYTES) */
  maxBytes?: number;
}

const MIME: Readonly<Record<CommandAudioFormat, string>> = {
  opus: 'audio/ogg',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
};

/** The audio file at `path`: refused when missing or over the cap. */
async function readAudioFile(path: string, name: string, maxBytes: number): Promise<Buffer> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch {
    throw new Error(`\`${name}\` exited without writing the audio file ({output_path})`);
  }
  if (size > maxBytes) throw new Error(`\`${name}\` wrote ${size} bytes of audio, over the cap of ${maxBytes}`);
  return readFile(path);
}

/** The TTS provider `name` that runs `spec.command`. */
export function commandTtsProvider(name: string, spec: CommandTtsSpec, options: CommandTtsOptions = {}): TtsProvider {
  const toFile = namesPlaceholder(spec.command, 'output_path');
  const maxBytes = options.maxBytes ?? COMMAND_SPEECH_MAX_BYTES;
  return {
    name,
    isAvailable: () => true,
    async synthesize(request: TtsRequest): Promise<SynthesizedSpeech> {
      const format = spec.output_format ?? request.format ?? 'opus';
      const dir = await mkdtemp(join(options.tmpRoot ?? tmpdir(), 'hermes-tts-'));
      try {
        const inputPath = join(dir, 'input.txt');
        const outputPath = join(dir, `speech.${format}`);
        await writeFile(inputPath, request.text, { mode: 0o600 });
        const argv = fillCommandArgv(spec.command, {
          input_path: inputPath,
          output_path: outputPath,
          format,
          voice: request.voice ?? '',
          model: request.model,
        });
        const program = programName(argv);
        const ran = await runSpeechProcess(argv, request.text, {
          cwd: dir,
          env: options.env ?? process.env,
          signal: request.signal,
          maxStdoutBytes: toFile ? IGNORED_STDOUT_BYTES : maxBytes,
          onStdoutOverflow: toFile ? 'drop' : 'fail',
        });
        if (ran.exitCode !== 0) {
          const how = ran.signal ? `was killed by ${ran.signal}` : `exited with code ${ran.exitCode}`;
          throw new Error(`\`${program}\` ${how}${ran.stderrTail ? `: ${ran.stderrTail}` : ''}`);
        }
        const bytes = toFile ? await readAudioFile(outputPath, program, maxBytes) : ran.stdout;
        if (bytes.length === 0)
          throw new Error(
            `\`${program}\` produced no audio (${toFile ? 'an empty {output_path} file' : 'nothing on stdout'})`,
          );
        return { bytes, mimeType: MIME[format] };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
