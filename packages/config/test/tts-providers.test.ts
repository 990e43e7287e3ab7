// tts.providers.<name> (`type: command`) in config.yaml: none by default, what loads, and the errors
// that name the key, its line and what is expected.
import { loadConfig } from '@hermes/config';
import { describe, expect, it } from 'vitest';
import { homeWithConfig } from './helpers.js';

function load(yaml: string) {
  const { home } = homeWithConfig(yaml);
  return loadConfig({ home, env: {} });
}

describe('tts.providers', () => {
  it('none by default; a command entry loads as written, output_format optional', () => {
    expect(load('').config.tts.providers).toEqual({});
    const { config, warnings } = load(`
tts:
  provider: piper
  providers:
    piper:
      type: command
      command: [piper, --model, /models/en.onnx, --output_file, "{output_path}"]
      output_format: wav
    say:
      type: command
      command: [say-it, "--voice={voice}", "{{literal}}"]
`);
    expect(warnings).toEqual([]);
    expect(config.tts.providers).toEqual({
      piper: {
        type: 'command',
        command: ['piper', '--model', '/models/en.onnx', '--output_file', '{output_path}'],
        output_format: 'wav',
      },
      say: { type: 'command', command: ['say-it', '--voice={voice}', '{{literal}}'] },
    });
  });

  it.each([
    [
      'a shell string',
      'command: "piper -f {output_path}"',
      ':5: tts.providers.p.command: expected list of strings, got string',
    ],
    [
      'an unknown placeholder',
      'command: [piper, "{text}"]',
      ':5: tts.providers.p.command[1]: expected a known placeholder ({input_path}, {output_path}, {format}, {voice}, {model}; {{ and }} are literal braces) instead of {text}, got string "{text}"',
    ],
    [
      'an empty command',
      'command: []',
      ':5: tts.providers.p.command: expected a non-empty list: the program, then its arguments',
    ],
  ])('refuses %s, naming the key and its line', (_, line, message) => {
    expect(() => load(`tts:\n  providers:\n    p:\n      type: command\n      ${line}\n`)).toThrow(message);
  });

  it('refuses an entry without type: command, and a name outside the charset', () => {
    expect(() => load('tts:\n  providers:\n    p:\n      command: [piper]\n')).toThrow(
      ':3: tts.providers.p.type: expected one of command, got nothing (the key is missing)',
    );
    expect(() => load('tts:\n  providers:\n    "my tts":\n      type: command\n      command: [a]\n')).toThrow(
      /:3: tts\.providers\.my tts: /,
    );
  });
});
