/**
 * `tts.providers.<name>`: a text-to-speech backend declared in config.yaml, any command-line tool
 * run without a shell (`type: command`). Its argv may carry placeholders, checked here so a typo
 * stops the start instead of reaching the tool.
 */
import * as z from 'zod';

/** What a command's arguments may say: `{input_path}` (a file holding the text), `{output_path}` (where the audio goes), and the request's settings. */
export const TTS_COMMAND_PLACEHOLDERS = ['input_path', 'output_path', 'format', 'voice', 'model'] as const;

/** `{{`, `}}` (literal braces) and `{name}` placeholders. */
const PLACEHOLDER = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The placeholder names an argument uses that are not known. */
export function unknownPlaceholders(arg: string): string[] {
  const known: readonly string[] = TTS_COMMAND_PLACEHOLDERS;
  return [...arg.matchAll(PLACEHOLDER)].flatMap((m) => (m[1] !== undefined && !known.includes(m[1]) ? [m[1]] : []));
}

/** The audio a command writes: its MIME type follows (opus: Ogg Opus, a voice note on Telegram). */
export const TTS_COMMAND_FORMATS = ['opus', 'mp3', 'wav'] as const;

export const ttsCommandProviderSchema = z.object({
  /** the only kind of entry (the seed's other kinds are plugins here: ctx.registerTtsProvider) */
  type: z.enum(['command']),
  /** the program and its arguments, run without a shell; placeholders are filled in each argument */
  command: z.array(z.string().min(1)).superRefine((argv, ctx) => {
    if (argv.length === 0)
      ctx.addIssue({ code: 'custom', message: 'a non-empty list: the program, then its arguments' });
    argv.forEach((arg, index) => {
      for (const name of unknownPlaceholders(arg)) {
        ctx.addIssue({
          code: 'custom',
          path: [index],
          message: `a known placeholder (${TTS_COMMAND_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}; {{ and }} are literal braces) instead of {${name}}`,
        });
      }
    });
  }),
  /** the format of the audio the command writes (default: tts.format) */
  output_format: z.enum(TTS_COMMAND_FORMATS).optional(),
});

export const ttsProvidersSchema = z
  .record(
    z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'a provider name of 1-32 letters, digits, "_" or "-"'),
    ttsCommandProviderSchema,
  )
  .default({});
