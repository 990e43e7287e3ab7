/**
 * The bytes of a Chat Completions request body, built from pieces serialized once where they can
 * be. Each tool definition is serialized once: the tool list is the same on every request (often
 * most of the body's bytes); a tool schema object is cached by identity (run-turn.ts keeps one per
 * registered tool), so it must not be changed after its first request: tools are fixed once
 * registered. A run of frozen messages (the history the gateway's session cache keeps) is kept
 * serialized from one turn to the next and only extended (frozen-runs.ts). At 3,700 messages of
 * history, `JSON.stringify` of the body and its UTF-8 encoding for the socket cost 2 ms a turn (a
 * string past 128 KB is a large V8 object), the chunks here 0.05 ms; docs/performance.md, "Long chat".
 */
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { FrozenRuns } from './frozen-runs.js';

const toolBytes = new WeakMap<object, Buffer>();
const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');
const TOOLS = Buffer.from(',"tools":');
const END = Buffer.from('}');

/** `,` and the JSON of `value` */
const piece = (value: object): Buffer => Buffer.from(`,${JSON.stringify(value)}`);

/** A run's `,{...},{...}` in one buffer that grows (by doubling) as the run does, and where each message ends. */
interface RunBytes {
  buffer: Buffer;
  used: number;
  ends: number[];
}

const runs = new FrozenRuns<RunBytes, Buffer>({
  create: () => ({ buffer: Buffer.allocUnsafe(4096), used: 0, ends: [] }),
  push(state, message) {
    const bytes = piece(message);
    if (state.used + bytes.length > state.buffer.length) {
      // views handed out before keep the old buffer, whose bytes never change
      const bigger = Buffer.allocUnsafe(Math.max(state.buffer.length * 2, state.used + bytes.length));
      state.buffer.copy(bigger, 0, 0, state.used);
      state.buffer = bigger;
    }
    bytes.copy(state.buffer, state.used);
    state.used += bytes.length;
    state.ends.push(state.used);
  },
  read: (state, length) => state.buffer.subarray(0, state.ends[length - 1] ?? 0),
});

function pushMessages(parts: Buffer[], messages: readonly object[]): void {
  parts.push(OPEN);
  let i = 0;
  while (i < messages.length) {
    const run = runs.read(messages, i);
    const bytes = run?.value ?? piece(messages[i] as object);
    parts.push(i === 0 ? bytes.subarray(1) : bytes);
    i += run?.length ?? 1;
  }
  parts.push(CLOSE);
}

function pushTools(parts: Buffer[], tools: readonly object[]): void {
  parts.push(OPEN);
  for (const [i, tool] of tools.entries()) {
    let bytes = toolBytes.get(tool);
    if (bytes === undefined) {
      bytes = piece(tool);
      toolBytes.set(tool, bytes);
    }
    parts.push(i === 0 ? bytes.subarray(1) : bytes);
  }
  parts.push(CLOSE);
}

/**
 * The body as chunks of bytes, in order: `JSON.stringify(body)` up to the order of its keys
 * (`messages`, then `tools`, last). A frozen history is one chunk, a view of its kept bytes: no
 * copy of it is made for the request (a fresh buffer past 128 KB costs a mapping and its page
 * faults every turn).
 */
export function completionChunks(body: ChatCompletionCreateParams): Buffer[] {
  const { tools, messages, ...rest } = body;
  const head = JSON.stringify(rest);
  const parts: Buffer[] = [Buffer.from(`${head.slice(0, -1)}${head.length > 2 ? ',' : ''}"messages":`)];
  pushMessages(parts, messages);
  if (tools !== undefined) {
    parts.push(TOOLS);
    pushTools(parts, tools);
  }
  parts.push(END);
  return parts;
}

/** The body as JSON text (see completionChunks). */
export function completionJson(body: ChatCompletionCreateParams): string {
  return Buffer.concat(completionChunks(body)).toString('utf8');
}
