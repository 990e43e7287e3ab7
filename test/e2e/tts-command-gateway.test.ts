// tts.providers.<name> with `type: command` through `hermes gateway run` (real grammy against the fake
// Bot API, the fake model): a tiny script is the voice. Not approved, it is never run: the start names
// `hermes trust approve tts:say`, the log says why no voice was made, the text goes alone. Approved,
// it gets the text on stdin and `{voice}` as an argument, writes `{output_path}`, and its bytes go out
// as a voice note after the text; a failing run is a warning naming the provider and the program's
// stderr, the text still sent. An edited entry is pending again.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHermes, tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { telegramGatewayEnv, useFakeTelegram } from '../helpers/use-fake-telegram.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();
const telegram = useFakeTelegram();
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The voice: logs `voice|text` (text from stdin), fails on a text saying "fail", else writes `OggS <text>`. */
const SAY = `import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
const [out, voice] = process.argv.slice(2);
const text = readFileSync(0, 'utf8');
appendFileSync(process.env.TTS_LOG, voice + '|' + text + '\\n');
if (text.includes('fail')) { process.stderr.write('no voice model\\nloaded'); process.exit(3); }
writeFileSync(out, 'OggS ' + text);
`;

/** A home whose voice is the SAY script, every answer spoken (`voice_answers: on`). */
function voiceHome(): { home: string; ttsLog: string; writeConfig(extraArg?: string): void } {
  const home = tempHome();
  const writeConfig = (extraArg = '') =>
    writeFileSync(
      join(home, 'config.yaml'),
      `gateway:
  batch_ms: 0
tts:
  voice: nova
  voice_answers: on
  provider: say
  providers:
    say:
      type: command
      command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(join(home, 'say.mjs'))}, "{output_path}", "{voice}"${extraArg}]
      output_format: opus
`,
    );
  writeFileSync(join(home, 'say.mjs'), SAY);
  writeConfig();
  return { home, ttsLog: join(home, 'tts-ran.log'), writeConfig };
}

/** Runs `hermes gateway run` over `home` (Telegram and the model faked) around `run`; returns its stderr. */
async function withGateway(home: string, ttsLog: string, run: () => Promise<void>): Promise<string> {
  openai.server.respond((req) => {
    const messages = (req.body as { messages: { role: string; content: string }[] }).messages;
    return { text: `Answer to ${String(messages.at(-1)?.content ?? '')}` };
  });
  const env = telegramGatewayEnv({ home, modelUrl: openai.server.url, telegram: telegram.server, allowedUsers: '42' });
  const gw = await spawnGateway({ ...env, TTS_LOG: ttsLog });
  try {
    await run();
  } finally {
    expect(await gw.stop()).toBe(0);
  }
  return gw.stderr();
}

const answered = (what: string) =>
  waitFor(() => telegram.server.sent.find((m) => m.text?.includes(what)), { what: `the answer "${what}"` });
const gatewayLog = (home: string) => readFileSync(join(home, 'logs', 'gateway.log'), 'utf8');
const trust = (home: string, args: string[]) => runHermes(['trust', ...args], { env: { HERMES_HOME: home } });
const approved = voiceHome();

describe('a command-line TTS provider (tts.providers) through hermes gateway run', () => {
  it('not approved: never run; the start names the approving command and the text goes alone', async () => {
    const { home, ttsLog } = voiceHome();
    const stderr = await withGateway(home, ttsLog, async () => {
      telegram.server.pushMessage({ chatId: 42, userId: 42, text: 'hello' });
      await answered('Answer to hello');
      await waitFor(() => gatewayLog(home).includes('tts.providers.say is not approved'), {
        what: 'the voice warning',
      });
    });
    expect(stderr).toContain(
      `TTS command say (runs ${process.execPath}) not loaded: not approved (new); run \`hermes trust approve tts:say\``,
    );
    expect(gatewayLog(home)).toContain(
      '"reason":"tts.providers.say is not approved (it runs a command): run `hermes trust approve tts:say` and restart"',
    );
    expect(telegram.server.uploads).toEqual([]);
    expect(existsSync(ttsLog)).toBe(false);
  });

  it('approved: the text on stdin, {voice} an argument, {output_path} sent as a voice note; a failure keeps the text', async () => {
    const { home, ttsLog } = approved;
    const approval = await trust(home, ['approve', 'tts:say', '--yes']);
    expect(approval.code).toBe(0);
    expect(approval.stdout).toMatch(/^tts:say: approved \(TTS command say \(runs \S+\); sha256 [0-9a-f]{12}\)$/m);
    await withGateway(home, ttsLog, async () => {
      telegram.server.pushMessage({ chatId: 42, userId: 42, text: 'hello' });
      const text = await answered('Answer to hello');
      const voice = await waitFor(() => telegram.server.uploads.find((u) => u.method === 'sendVoice'), {
        what: 'sendVoice',
      });
      const audio = Buffer.from('OggS Answer to hello');
      expect(voice).toMatchObject({ chat_id: 42, size: audio.length, sha256: sha256(audio) });
      expect(voice.fileName).toMatch(/^voice-[0-9a-f]{16}\.opus$/);
      expect(text.message_id).toBeLessThan(voice.message_id);
      // the program fails: a warning naming the provider and its stderr; the text still comes
      telegram.server.pushMessage({ chatId: 42, userId: 42, text: 'fail now' });
      await answered('Answer to fail now');
      await waitFor(() => gatewayLog(home).includes('voice answer failed'), { what: 'the failure warning' });
      expect(telegram.server.uploads).toHaveLength(1);
    });
    expect(readFileSync(ttsLog, 'utf8')).toBe('nova|Answer to hello\nnova|Answer to fail now\n');
    expect(gatewayLog(home)).toContain(
      'TTS provider \\"say\\" failed: `node` exited with code 3: no voice model loaded',
    );
    expect(telegram.server.sent.some((m) => m.text?.includes('MEDIA:'))).toBe(false);
  });

  it('an edited entry is pending again until approved', async () => {
    approved.writeConfig(', "--fast"');
    const listed = await trust(approved.home, ['list']);
    expect(listed.stdout).toMatch(/^tts:say\s+pending \(changed since approval\)\s+TTS command say/m);
  });
});
