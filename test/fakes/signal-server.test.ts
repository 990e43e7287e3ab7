// The fake signal-cli reads a send's text styles as signal-cli does: `textStyle` as one
// `start:length:STYLE` or a list (or `textStyles`), a malformed one or an unknown style refused
// with signal-cli's user error (-1) and its message, nothing sent; and, stricter than signal-cli, a
// range that is empty or runs past the message's UTF-16 length.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSignal, startFakeSignal, styledParts } from './signal-server.js';

let signal: FakeSignal;
beforeAll(async () => {
  signal = await startFakeSignal();
});
afterAll(async () => {
  await signal.close();
});
beforeEach(() => signal.reset());

async function send(
  params: Record<string, unknown>,
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const response = await fetch(`${signal.url}/api/v1/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'send', params: { recipient: ['+15551230001'], ...params } }),
  });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}

describe('fake signal-cli: text styles', () => {
  it('records the styles of a list, a single string and textStyles, at UTF-16 offsets', async () => {
    expect((await send({ message: '👍 ok', textStyle: ['3:2:BOLD', '0:2:SPOILER'] })).result).toBeDefined();
    expect((await send({ message: 'plain', textStyle: '0:5:MONOSPACE' })).result).toBeDefined();
    expect((await send({ message: 'plural', textStyles: ['0:3:ITALIC'] })).result).toBeDefined();
    expect((await send({ message: 'none' })).result).toBeDefined();
    expect(signal.sent.map(styledParts)).toEqual([['BOLD:ok', 'SPOILER:👍'], ['MONOSPACE:plain'], ['ITALIC:plu'], []]);
  });

  it('refuses a malformed style, an unknown style and a range outside the message, sending nothing', async () => {
    const refused = [
      [{ message: 'hello', textStyle: ['0:5'] }, "Invalid textStyle syntax (0:5) expected 'start:length:STYLE'"],
      [
        { message: 'hello', textStyle: ['-1:2:BOLD'] },
        "Invalid textStyle syntax (-1:2:BOLD) expected 'start:length:STYLE'",
      ],
      [{ message: 'hello', textStyle: ['0:5:bold'] }, 'Invalid style: bold'],
      [{ message: 'hello', textStyle: ['0:5:UNDERLINE'] }, 'Invalid style: UNDERLINE'],
      [{ message: '👍 ok', textStyle: ['3:3:BOLD'] }, 'outside the message (5 UTF-16 code units)'],
      [{ message: 'hello', textStyle: ['2:0:BOLD'] }, 'outside the message'],
    ] as const;
    for (const [params, message] of refused) {
      const answer = await send(params);
      expect(answer.error?.code, message).toBe(-1);
      expect(answer.error?.message).toContain(message);
    }
    expect((await send({ message: 'x', textStyle: [3] })).error?.code).toBe(-32602);
    expect(signal.sent).toEqual([]);
  });
});
