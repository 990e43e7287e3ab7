/**
 * Questions on stdin for the plugins commands. On a TTY: readline, or raw mode without echo for
 * secrets. Piped: lines are read as they come (buffered, so answers sent ahead are not lost).
 */
import { createInterface, type Interface } from 'node:readline';
import { CliExit } from '../cli-error.js';

export interface Prompter {
  /** true when stdin is a terminal */
  readonly interactive: boolean;
  /** writes `question`, resolves with the answer line, or null at end of input */
  ask(question: string, options?: { secret?: boolean }): Promise<string | null>;
  /** releases stdin so the process can exit */
  close(): void;
}

const INTERRUPTED = 130;

function askTty(question: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    let answered = false;
    rl.on('SIGINT', () => {
      process.stdout.write('\n');
      rl.close();
      reject(new CliExit(INTERRUPTED));
    });
    rl.on('close', () => {
      if (!answered) resolve(null);
    });
    rl.question(question, (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
  });
}

function askSecretTty(question: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    let value = '';
    const finish = (result: string | null, error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stdout.write('\n');
      if (error) reject(error);
      else resolve(result);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of chunk.toString()) {
        if (ch === '\r' || ch === '\n') return finish(value);
        if (ch === '\u0003') return finish(null, new CliExit(INTERRUPTED));
        if (ch === '\u0004') return finish(value === '' ? null : value);
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    process.stdout.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

/** A line queue over piped stdin: answers are read as-is, without echo handling. */
class PipedLines {
  private readonly lines: string[] = [];
  private readonly waiting: ((line: string | null) => void)[] = [];
  private ended = false;
  private readonly rl: Interface;

  constructor() {
    this.rl = createInterface({ input: process.stdin, terminal: false });
    this.rl.on('line', (line) => {
      const waiter = this.waiting.shift();
      if (waiter) waiter(line);
      else this.lines.push(line);
    });
    this.rl.on('close', () => {
      this.ended = true;
      for (const waiter of this.waiting.splice(0)) waiter(null);
    });
  }

  next(): Promise<string | null> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  close(): void {
    this.rl.close();
  }
}

/** A prompter over process.stdin; piped input is only opened at the first question. */
export function createPrompter(): Prompter {
  const interactive = process.stdin.isTTY === true;
  let piped: PipedLines | null = null;
  return {
    interactive,
    async ask(question, options = {}) {
      if (interactive) return options.secret ? askSecretTty(question) : askTty(question);
      process.stdout.write(question);
      piped ??= new PipedLines();
      const line = await piped.next();
      process.stdout.write('\n');
      return line;
    },
    close() {
      piped?.close();
    },
  };
}
