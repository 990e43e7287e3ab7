// The everyday tools in a Telegram chat, end to end through `hermes gateway run` (real grammy against
// the fake Bot API): the model calls search_files, patch, todo and execute_code in the project of
// terminal.cwd, and the chat gets their results (the fake model answers with them); the files on
// disk show the patch.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerWithCallPlan } from '../helpers/call-plan.js';
import { tempHome } from '../helpers/run-hermes.js';
import { spawnGateway } from '../helpers/spawn-gateway.js';
import { useFakeOpenAI } from '../helpers/use-fake-openai.js';
import { telegramGatewayEnv, useFakeTelegram } from '../helpers/use-fake-telegram.js';
import { waitFor } from '../helpers/wait-for.js';

const openai = useFakeOpenAI();
const telegram = useFakeTelegram();

describe('the everyday tools through hermes gateway run on Telegram', () => {
  it('search_files, patch, todo and execute_code, called by the model, answer in the chat', async () => {
    const tg = telegram.server;
    const home = tempHome();
    // outside HERMES_HOME (a working directory inside it is the service layout: a workspace per session)
    const project = mkdtempSync(join(tmpdir(), 'hermes-project-'));
    writeFileSync(join(project, 'notes.md'), '# Notes\n\nTODO: buy milk\n');
    writeFileSync(join(home, 'config.yaml'), `gateway:\n  batch_ms: 0\nterminal:\n  cwd: ${JSON.stringify(project)}\n`);
    answerWithCallPlan(openai.server);
    const gw = await spawnGateway(
      telegramGatewayEnv({ home, modelUrl: openai.server.url, telegram: tg, allowedUsers: '42' }),
    );
    const ask = async (calls: object[]): Promise<Array<Record<string, unknown>>> => {
      const before = tg.sent.length;
      tg.pushMessage({ chatId: 42, userId: 42, text: `CALL ${JSON.stringify(calls)}` });
      const reply = await waitFor(() => tg.sent[before], { what: 'the answer' });
      return (reply.text ?? '').split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    };
    try {
      const [search] = await ask([{ name: 'search_files', arguments: { pattern: 'TODO' } }]);
      expect(search?.matches).toEqual([{ path: join(project, 'notes.md'), line: 3, text: 'TODO: buy milk' }]);
      const [patched] = await ask([
        { name: 'patch', arguments: { path: 'notes.md', old_text: 'TODO: buy milk', new_text: 'DONE: bought milk' } },
      ]);
      expect(patched).toEqual({ files: [{ path: join(project, 'notes.md'), action: 'modified', replacements: 1 }] });
      expect(readFileSync(join(project, 'notes.md'), 'utf8')).toBe('# Notes\n\nDONE: bought milk\n');
      const [plan] = await ask([{ name: 'todo', arguments: { todos: [{ content: 'milk', status: 'completed' }] } }]);
      expect(plan?.counts).toMatchObject({ completed: 1 });
      const [code] = await ask([
        { name: 'execute_code', arguments: { language: 'javascript', code: 'console.log(6 * 7)' } },
      ]);
      expect(code).toEqual({ output: '42\n', exit_code: 0 });
    } finally {
      expect(await gw.stop()).toBe(0);
      rmSync(project, { recursive: true, force: true });
    }
  });
});
