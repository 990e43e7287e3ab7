// tts.providers.<name> with `type: command`: the argv's placeholders filled (each argument stays one,
// no shell), the text on stdin and in {input_path}, the audio read from {output_path} or stdout, and
// every failure (exit code, no audio, a missing program, the time running out) an error naming the
// program, with the synthesizer's prefix naming the provider; the temporary folder always removed.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TTS_COMMAND_PLACEHOLDERS } from '@hermes/config';
import { PluginRegistries } from '@hermes/plugins';
import type { TtsRequest } from '@hermes/protocol';
import { describe, expect, it } from 'vitest';
import { quietPeriod } from '../../../test/helpers/wait-for.js';
import { commandTtsProvider, createSpeechSynthesizer, fillCommandArgv } from '../src/tts/index.js';

const node = process.execPath;
/** a node one-liner as the tool: `node -e CODE ARGS...` */
const script = (code: string, ...args: string[]) => [node, '-e', code, ...args];

const request = (over: Partial<TtsRequest> = {}): TtsRequest => ({
  text: 'Hello there.',
  voice: 'nova',
  format: 'opus',
  model: 'piper-en',
  baseUrl: 'http://127.0.0.1:9/v1',
  apiKey: '',
  signal: new AbortController().signal,
  ...over,
});

describe('the command argv', () => {
  it('fills every placeholder config.yaml accepts, inside arguments, with {{ }} as literal braces', () => {
    const values = {
      input_path: '/t/in.txt',
      output_path: '/t/out file.opus',
      format: 'opus',
      voice: 'a b',
      model: 'm',
    };
    const argv = TTS_COMMAND_PLACEHOLDERS.map((p) => `--${p}={${p}}`);
    expect(fillCommandArgv(argv, values)).toEqual([
      '--input_path=/t/in.txt',
      '--output_path=/t/out file.opus',
      '--format=opus',
      '--voice=a b',
      '--model=m',
    ]);
    expect(fillCommandArgv(['{{"voice": "{voice}"}}'], values)).toEqual(['{"voice": "a b"}']);
    expect(() => fillCommandArgv(['{text}'], values)).toThrow('unknown placeholder {text}');
  });
});

describe('a command TTS provider', () => {
  const tmpRoot = mkdtempSync(join(tmpdir(), 'hermes-tts-test-'));
  const provider = (command: string[], output_format?: 'opus' | 'mp3' | 'wav') =>
    commandTtsProvider('say', { type: 'command', command, output_format }, { tmpRoot });

  it('stdout is the audio when {output_path} is not named; the text comes on stdin, never as an argument', async () => {
    // prints its argv and then its stdin: the text (even one starting with "-") is not an argument
    const echo = provider(
      script(
        'process.stdout.write(JSON.stringify(process.argv.slice(1)) + "|"); process.stdin.pipe(process.stdout)',
        '{voice}',
        '{model}',
      ),
    );
    const speech = await echo.synthesize(request({ text: '--help me' }));
    expect(Buffer.from(speech.bytes).toString()).toBe('["nova","piper-en"]|--help me');
    expect(speech.mimeType).toBe('audio/ogg');
    expect(readdirSync(tmpRoot)).toEqual([]); // the folder is gone
  });

  it('{output_path} is read back; {input_path} holds the text; output_format sets the type and the file name', async () => {
    const copy = provider(
      script(
        'const fs = require("fs"); fs.writeFileSync(process.argv[2], "RIFF" + fs.readFileSync(process.argv[1], "utf8") + process.argv[3])',
        '{input_path}',
        '{output_path}',
        '{format}',
      ),
      'wav',
    );
    const speech = await copy.synthesize(request({ text: 'spoken words' }));
    expect(Buffer.from(speech.bytes).toString()).toBe('RIFFspoken wordswav');
    expect(speech.mimeType).toBe('audio/wav');
    const named = provider(script('require("fs").writeFileSync(process.argv[1], process.argv[1])', '{output_path}'));
    expect(Buffer.from((await named.synthesize(request({ format: 'mp3' }))).bytes).toString()).toMatch(
      /hermes-tts-[^/]+\/speech\.mp3$/,
    );
    expect(readdirSync(tmpRoot)).toEqual([]);
  });

  it('a failure names the program: a non-zero exit with its stderr, no audio, no file, a program not found', async () => {
    await expect(
      provider(script('console.error("model file\\n missing"); process.exit(3)')).synthesize(request()),
    ).rejects.toThrow(/^`node` exited with code 3: model file missing$/);
    await expect(provider(script('')).synthesize(request())).rejects.toThrow(
      '`node` produced no audio (nothing on stdout)',
    );
    await expect(provider(script('', '{output_path}')).synthesize(request())).rejects.toThrow(
      '`node` exited without writing the audio file ({output_path})',
    );
    await expect(provider(['/nonexistent/piper', '{output_path}']).synthesize(request())).rejects.toThrow(
      'cannot run `piper`: not found (is it installed and on PATH?)',
    );
    expect(readdirSync(tmpRoot)).toEqual([]);
  });

  it('the audio is bounded: more on stdout or in the file than the cap is refused', async () => {
    const capped = (command: string[]) =>
      commandTtsProvider('say', { type: 'command', command }, { tmpRoot, maxBytes: 1_000 });
    await expect(capped(script('process.stdout.write("x".repeat(5000))')).synthesize(request())).rejects.toThrow(
      '`node` printed more than 1000 bytes of audio (the cap)',
    );
    await expect(
      capped(script('require("fs").writeFileSync(process.argv[1], "x".repeat(2000))', '{output_path}')).synthesize(
        request(),
      ),
    ).rejects.toThrow('`node` wrote 2000 bytes of audio, over the cap of 1000');
    expect(readdirSync(tmpRoot)).toEqual([]);
  });

  it('the synthesizer names the provider, kills a command past tts.timeout_s with its children, and explains a missing one', async () => {
    const registries = new PluginRegistries();
    const marker = join(tmpRoot, '..', `grandchild-${process.pid}-${Date.now()}`);
    // a shell that starts a child which would write the marker after 0.8 s, then waits
    const hang = provider(['/bin/sh', '-c', `(sleep 0.8; touch '${marker}') & wait`]);
    registries.ttsProviders.set('say', { name: 'say', plugin: 'config:tts.providers.say', provider: hang });
    const config = { provider: 'say', model: 'm', voice: 'v', format: 'opus' as const, max_chars: 100, timeout_s: 0.3 };
    const synth = createSpeechSynthesizer({ providers: registries.ttsProviders, config, modelBaseUrl: '', apiKey: '' });
    const started = Date.now();
    await expect(synth.synthesize('Hi.')).rejects.toThrow('TTS provider "say" timed out after 0.3 s');
    expect(Date.now() - started).toBeLessThan(800);
    expect(readdirSync(tmpRoot)).toEqual([]);
    registries.ttsProviders.delete('say');
    const missing = createSpeechSynthesizer({
      providers: registries.ttsProviders,
      config,
      modelBaseUrl: '',
      apiKey: '',
      missing: (name) => (name === 'say' ? 'tts.providers.say is not approved' : null),
    });
    expect(missing.unavailable()).toBe('tts.providers.say is not approved');
    // the grandchild was killed with its group: no marker once its time has passed
    await quietPeriod(1_000 - (Date.now() - started), 'the killed grandchild would have written the marker by now');
    expect(existsSync(marker)).toBe(false);
  });
});
