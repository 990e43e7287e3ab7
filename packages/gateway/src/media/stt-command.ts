/**
 * Local speech to text: `HERMES_LOCAL_STT_COMMAND`, a shell template (a whisper.cpp binary, any
 * local ASR CLI) run with `{input_path}` (the audio file), `{output_dir}` (an empty folder of its
 * own), `{model}` (stt.model) and `{language}` (empty: the tool's own detection) filled in, each
 * shell-quoted. The transcript is the first `.txt` file the command wrote into `{output_dir}`, else
 * what it printed. Read from the operator's environment only (never HERMES_HOME/.env, which a
 * command line there would turn into code the model could plant): gateway-app.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TranscriptionError } from './transcription-error.js';

/** `value` as one shell word. */
const quote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/** The template with its placeholders filled in (each value quoted). */
export function fillSttCommand(
  template: string,
  values: Record<'input_path' | 'output_dir' | 'model' | 'language', string>,
) {
  return template.replace(/\{(input_path|output_dir|model|language)\}/g, (_, key: keyof typeof values) =>
    quote(values[key]),
  );
}

export async function transcribeWithCommand(
  audioPath: string,
  template: string,
  options: { model: string; timeoutMs: number },
  signal?: AbortSignal,
): Promise<string> {
  const outputDir = await mkdtemp(join(tmpdir(), 'hermes-stt-'));
  try {
    const command = fillSttCommand(template, {
      input_path: audioPath,
      output_dir: outputDir,
      model: options.model,
      language: '',
    });
    const printed = await new Promise<string>((resolve, reject) => {
      execFile(
        '/bin/sh',
        ['-c', command],
        { timeout: options.timeoutMs, maxBuffer: 4 * 1024 * 1024, ...(signal ? { signal } : {}) },
        (error, stdout, stderr) => {
          if (!error) return resolve(stdout);
          const killed = (error as { killed?: boolean }).killed === true;
          const why = killed
            ? `it did not finish within ${options.timeoutMs / 1000} s`
            : `it exited ${String((error as { code?: unknown }).code ?? '')}: ${stderr.trim().split('\n')[0] ?? ''}`.trim();
          reject(new TranscriptionError(`the local transcription command (HERMES_LOCAL_STT_COMMAND) failed: ${why}`));
        },
      );
    });
    const txt = (await readdir(outputDir)).filter((name) => name.endsWith('.txt')).sort()[0];
    const transcript = (txt === undefined ? printed : await readFile(join(outputDir, txt), 'utf8')).trim();
    if (transcript === '')
      throw new TranscriptionError('the local transcription command (HERMES_LOCAL_STT_COMMAND) gave no text');
    return transcript;
  } finally {
    await rm(outputDir, { recursive: true, force: true });
  }
}
