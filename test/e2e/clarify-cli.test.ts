// The clarify tool in the CLI (the built CLI, stdin kept open as a person's terminal): `hermes chat`
// prints the question with its choices numbered and the next line typed answers it (a number picks
// that choice); `hermes -z`, where nobody can answer, is never offered the tool.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { answerWithCallPlan } from '../helpers/call-plan.js';
import { HERMES_BIN, runHermes, tempHome } from '../helpers/run-hermes.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();

const completions = () => openai.server.requests.filter((r) => r.path.endsWith('/chat/completions'));
const offered = (i: number): string[] =>
  ((completions()[i]?.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name);
const env = (home: string) => ({
  PATH: process.env.PATH ?? '',
  HERMES_HOME: home,
  OPENAI_BASE_URL: openai.server.url,
  HERMES_INFERENCE_MODEL: 'm',
});

describe('clarify in the CLI', () => {
  it('hermes chat: the question with numbered choices, the next line answers it', async () => {
    answerWithCallPlan(openai.server);
    const child = spawn(process.execPath, [HERMES_BIN, 'chat'], {
      env: env(tempHome()),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await waitFor(() => out.includes('you> '), { what: 'the chat prompt' });
      const call = [{ name: 'clarify', arguments: { question: 'Which city?', choices: ['Rome', 'Paris'] } }];
      child.stdin.write(`CALL ${JSON.stringify(call)}\n`);
      await waitFor(() => out.includes('answer (a number, or your own words)> '), { what: 'the question asked' });
      expect(out).toContain('❓ Which city?\n  1. Rome\n  2. Paris\n');
      expect(offered(0)).toContain('clarify');
      child.stdin.write('2\n');
      await waitFor(() => out.includes('"answer":"Paris"'), { what: 'the answer with the tool result' });
      expect(out).toContain('{"answer":"Paris","choice":1,"via":"text"}');
      expect(completions()).toHaveLength(2);
      child.stdin.write('/exit\n');
      expect(await exited).toBe(0);
    } finally {
      child.kill();
    }
  });

  it('hermes -z is not offered clarify (nobody can answer)', async () => {
    openai.server.script({ text: 'hello' });
    const r = await runHermes(['-z', 'hi'], { env: env(tempHome()) });
    expect(r.code).toBe(0);
    expect(offered(0).length).toBeGreaterThan(0);
    expect(offered(0)).not.toContain('clarify');
  });
});
