/**
 * `hermes chat`: interactive terminal chat on platform `cli`. Answers stream as they arrive;
 * /new starts a fresh session, /exit quits; Ctrl+C interrupts a running turn (and quits at
 * the prompt). Dangerous commands ask here, and so does the clarify tool (the next line answers it).
 */
import { createInterface, type Interface } from 'node:readline/promises';
import { userFacingError } from '@hermes/agent';
import { type ApprovalChoice, type ApprovalRequest, CLI_IDENTITY } from '@hermes/protocol';
import { chatBanner } from '../chat-banner.js';
import { terminalClarify } from '../chat-clarify.js';
import { CHAT_SESSION_COMMANDS, chatSessionCommand } from '../chat-session-commands.js';
import type { GlobalOptions } from '../main.js';
import { pluginSummary } from '../plugin-summary.js';
import { createAgentRuntime } from '../runtime.js';
import { cliSessionKey, cliTurnJob, cliTurnService, compressCliSession, runCliTurn } from '../session-turn.js';
import { surfaceSkillCommands } from '../skills-setup.js';

/** The chat's own commands: a skill or plugin command of the same name does not replace them. */
const CHAT_COMMANDS = [
  'new',
  'reset',
  'compress',
  'reasoning',
  'plugins',
  'help',
  'exit',
  'quit',
  ...CHAT_SESSION_COMMANDS,
];

const CHOICES: Record<string, ApprovalChoice> = { o: 'once', s: 'session', a: 'always', d: 'deny', '': 'deny' };

/** Reads lines in order whether stdin is a terminal or a pipe (piped lines are buffered, not lost). */
/**
 * Reads a line after printing `prompt`. A read left waiting (the prompt woken by an injected
 * message) is the one the next caller gets, so the user's next line goes to whoever asks next
 * (an approval question included) and is never swallowed.
 */
function lineReader(rl: Interface): (prompt: string) => Promise<string | null> {
  const lines = rl[Symbol.asyncIterator]();
  let pending: Promise<string | null> | null = null;
  return (prompt) => {
    process.stdout.write(prompt);
    pending ??= lines.next().then((next) => {
      pending = null;
      return next.done ? null : String(next.value);
    });
    return pending;
  };
}

const WOKEN = Symbol('woken by an injected message');

function askApproval(
  read: (prompt: string) => Promise<string | null>,
): (request: ApprovalRequest) => Promise<ApprovalChoice> {
  return async (request) => {
    process.stdout.write(`\n⚠ ${request.description}\n  $ ${request.command}\n`);
    const answer = ((await read('Run it? [o]nce / [s]ession / [a]lways / [d]eny (default deny): ')) ?? '')
      .trim()
      .toLowerCase();
    return CHOICES[answer.charAt(0)] ?? 'deny';
  };
}

/** Runs the interactive chat until /exit, Ctrl+C at the prompt, or end of input. */
export async function runChat(options: GlobalOptions): Promise<void> {
  const rt = await createAgentRuntime(options, { yolo: options.yolo ?? false });
  const newSession = () =>
    rt.store.sessions.create({
      key: cliSessionKey('cli-chat'),
      platform: 'cli',
      model: rt.model,
      userKey: CLI_IDENTITY,
    });
  let session: Awaited<ReturnType<typeof newSession>>;
  try {
    cliTurnService(rt); // an unknown context.engine stops the start
    session = await newSession();
  } catch (err) {
    await rt.close();
    throw err;
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
  const read = lineReader(rl);
  let approve = rt.approvalGate(session.id, askApproval(read));
  const write = (text: string) => process.stdout.write(text);
  const clarify = terminalClarify(read, write, rt.config.agent.clarify_timeout_s * 1000);
  let running: AbortController | null = null;
  /** /reasoning show: the thinking printed above each answer (this chat run only) */
  let showReasoning = false;
  let closed = false;
  rl.on('SIGINT', () => {
    if (running) {
      running.abort();
      process.stdout.write('\n[interrupted]\n');
    } else {
      closed = true;
      rl.close();
    }
  });
  // ctx.injectMessage from plugins: run as the next user turn, at once at the prompt; a running
  // turn is interrupted first (as Ctrl+C is)
  const injected: string[] = [];
  let wake: (() => void) | null = null;
  rt.setInjector((text) => {
    injected.push(text);
    if (running) {
      running.abort();
      process.stdout.write('\n[interrupted by an injected message]\n');
    }
    wake?.();
    return true;
  });
  /** The next input: an injected message when one waits (or arrives while the prompt waits), else the user's line. */
  const nextInput = async (): Promise<{ text: string | null; injected: boolean }> => {
    const queued = injected.shift();
    if (queued !== undefined) return { text: queued, injected: true };
    const woken = new Promise<typeof WOKEN>((resolve) => {
      wake = () => resolve(WOKEN);
    });
    const first = await Promise.race([read('you> '), woken]);
    wake = null;
    if (first === WOKEN) return { text: injected.shift() ?? '', injected: true };
    return { text: first, injected: false };
  };
  const taken = (name: string) => CHAT_COMMANDS.includes(name) || rt.registries.commands.has(name);
  const skills = surfaceSkillCommands(rt.skills, taken, 'hermes chat', rt.logger.child({ component: 'skills' }));
  process.stdout.write(
    chatBanner({
      model: rt.model,
      tools: rt.tools.list(),
      toolsets: rt.config.agent.toolsets,
      mcpServers: rt.mcp.status().length,
    }),
  );
  try {
    while (!closed) {
      const next = await nextInput();
      if (next.injected) process.stdout.write(`\n[injected] ${next.text}\n`);
      const input = next.text;
      if (input === null) break; // end of input
      const line = input.trim();
      if (line === '') continue;
      if (line === '/exit' || line === '/quit') break;
      if (line === '/help') {
        const own = [...rt.registries.commands.values()].map(
          (c) => `  /${c.name}  ${c.description ? `${c.description} ` : ''}(plugin ${c.plugin})\n`,
        );
        const skillList = skills.list().map((c) => `  /${c.name}  ${c.description}\n`);
        process.stdout.write(
          `Commands:\n  /new, /reset  start a new session\n  /compress  summarize older messages now\n  /undo  take back your last message and its answer\n  /retry  take it back and ask it again\n  /title NAME  name this session\n  /sessions  this chat's sessions; /resume N goes back to one\n  /usage  this session's tokens and the provider account's limits\n  /reasoning show|hide  the model's thinking above its answers\n  /plugins  the plugins and their state\n  /help  this list\n  /exit, /quit  leave (Ctrl+C interrupts a running answer)\n${own.join('')}${skillList.length > 0 ? `Skills (/name then your text):\n${skillList.join('')}` : ''}`,
        );
        continue;
      }
      if (line === '/plugins') {
        process.stdout.write(`${pluginSummary(rt.plugins)}\n`);
        continue;
      }
      const command = /^\/([A-Za-z0-9_:-]+)(?:\s+([\s\S]*))?$/.exec(line);
      const pluginCommand = command?.[1] ? rt.registries.commands.get(command[1]) : undefined;
      if (pluginCommand) {
        try {
          const reply = await pluginCommand.handler(command?.[2] ?? '');
          if (reply) process.stdout.write(`${reply}\n`);
        } catch (err) {
          rt.logger.warn({ err, plugin: pluginCommand.plugin }, `command /${pluginCommand.name} failed`);
          process.stdout.write(
            `[error] /${pluginCommand.name} (plugin ${pluginCommand.plugin}) failed: ${(err as Error).message}\n`,
          );
        }
        continue;
      }
      if (line === '/new' || line === '/reset') {
        await rt.hooks.invoke('on_session_finalize', { sessionId: session.id, platform: 'cli', reason: 'new' });
        await rt.store.sessions.end(session.id, 'reset');
        session = await newSession();
        approve = rt.approvalGate(session.id, askApproval(read));
        await rt.hooks.invoke('on_session_reset', { sessionId: session.id, platform: 'cli' });
        process.stdout.write('Started a new session.\n');
        continue;
      }
      if (line === '/compress') {
        process.stdout.write(`${await compressCliSession(rt, session.id)}\n`);
        continue;
      }
      if (command?.[1] === 'reasoning') {
        const arg = (command[2] ?? '').trim().toLowerCase();
        if (arg === 'show' || arg === 'hide') showReasoning = arg === 'show';
        else if (arg !== '') {
          process.stdout.write('Usage: /reasoning, /reasoning show or /reasoning hide\n');
          continue;
        }
        process.stdout.write(`The model's thinking is ${showReasoning ? 'shown above' : 'hidden from'} its answers.\n`);
        continue;
      }
      // /retry: the last message taken back becomes this turn's text
      let retried: string | null = null;
      if (command?.[1] && CHAT_SESSION_COMMANDS.includes(command[1])) {
        const done = await chatSessionCommand(rt, session, command[1], command[2] ?? '');
        if ('reply' in done) {
          if (done.switchedTo) {
            session = done.switchedTo;
            approve = rt.approvalGate(session.id, askApproval(read));
          }
          process.stdout.write(`${done.reply}\n`);
          continue;
        }
        retried = done.retry;
      }
      let skillText: string | null = null;
      try {
        skillText = command?.[1] && retried === null ? await skills.message(command[1], command[2] ?? '') : null;
      } catch (err) {
        process.stdout.write(`[error] skill /${command?.[1]}: ${(err as Error).message}\n`);
        continue;
      }
      if (command && line.startsWith('/') && skillText === null && retried === null) {
        const known = [
          '/new',
          '/reset',
          '/compress',
          '/reasoning',
          ...CHAT_SESSION_COMMANDS.map((c) => `/${c}`),
          '/plugins',
          '/help',
          '/exit',
          ...[...rt.registries.commands.keys()].map((c) => `/${c}`),
          ...skills.list().map((c) => `/${c.name}`),
        ];
        process.stdout.write(`Unknown command ${line.split(/\s/)[0]}. Commands: ${known.join(', ')}\n`);
        continue;
      }
      running = new AbortController();
      process.stdout.write('hermes> ');
      let streamed = false;
      const result = await runCliTurn(
        rt,
        cliTurnJob('cli-chat', retried ?? skillText ?? line, {
          kind: 'terminal',
          sessionId: session.id,
          requestApproval: approve,
          clarify,
          signal: running.signal,
          // the thinking is printed before the answer: with it shown, the answer waits for the end
          ...(showReasoning
            ? {}
            : {
                onDelta: (text: string) => {
                  streamed = true;
                  process.stdout.write(text);
                },
              }),
        }),
      );
      running = null;
      if (result.status === 'completed') {
        if (showReasoning && result.reasoning) process.stdout.write(`\n💭 Thinking:\n${result.reasoning.trim()}\n\n`);
        if (!streamed && result.finalText) process.stdout.write(result.finalText);
        process.stdout.write('\n');
      } else if (result.status !== 'interrupted') {
        const facing = userFacingError(result.error ?? new Error(`the turn ended ${result.status}`));
        rt.logger.error({ code: facing.code }, `chat turn failed: ${result.error?.message ?? result.status}`);
        process.stdout.write(`\n[error] ${facing.message}\n`);
      }
    }
  } finally {
    rt.setInjector(null);
    rl.close();
    await rt.hooks.invoke('on_session_finalize', { sessionId: session.id, platform: 'cli', reason: 'exit' });
    try {
      await rt.store.sessions.end(session.id, 'exit');
    } finally {
      await rt.close();
    }
  }
}
