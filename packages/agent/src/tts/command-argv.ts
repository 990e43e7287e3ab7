/**
 * The argv of a `tts.providers` command with its placeholders filled in: `{input_path}`,
 * `{output_path}`, `{format}`, `{voice}`, `{model}` anywhere inside an argument, `{{` and `}}` for
 * literal braces. Each argument stays one argument (no shell parses it), so a value with spaces
 * or quotes is passed as it is. The text itself is never an argument (stdin or `{input_path}`):
 * an answer starting with `-` must not become an option of the tool.
 */

export type CommandPlaceholder = 'input_path' | 'output_path' | 'format' | 'voice' | 'model';

const PLACEHOLDER = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** True when an argument names `{output_path}` (the audio is then read from that file, not stdout). */
export function namesPlaceholder(argv: readonly string[], name: CommandPlaceholder): boolean {
  return argv.some((arg) => [...arg.matchAll(PLACEHOLDER)].some((m) => m[1] === name));
}

/** The argv with each placeholder replaced; an unknown one throws (config.yaml's check refuses it first). */
export function fillCommandArgv(
  argv: readonly string[],
  values: Readonly<Record<CommandPlaceholder, string>>,
): string[] {
  return argv.map((arg) =>
    arg.replace(PLACEHOLDER, (whole, name: string | undefined) => {
      if (whole === '{{') return '{';
      if (whole === '}}') return '}';
      if (name !== undefined && Object.hasOwn(values, name)) return values[name as CommandPlaceholder];
      throw new Error(`unknown placeholder ${whole} in the command`);
    }),
  );
}
